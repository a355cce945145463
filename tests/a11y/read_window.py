#!/usr/bin/python3
"""Reads rigscope's window as a screen reader does, through AT-SPI, for tests/window_a11y.rs.

Finds the application named rigscope on the accessibility bus, lists its tabs and buttons by name, reads the
timeline's Frame field, then presses keys in the window (xdotool) and reads the frame after each. Prints one
JSON object; a step that times out is reported in it (the Rust test says what was missing), never hangs.
"""

import json
import subprocess
import sys
import time

import pyatspi

TIMEOUT = 60.0


def nodes(node):
    """Every node under `node`, itself first."""
    stack = [node]
    while stack:
        n = stack.pop()
        if n is None:
            continue
        yield n
        try:
            count = n.childCount
        except Exception:
            continue
        for i in reversed(range(count)):
            try:
                stack.append(n.getChildAtIndex(i))
            except Exception:
                pass


def find_app(name):
    deadline = time.time() + TIMEOUT
    while time.time() < deadline:
        for app in pyatspi.Registry.getDesktop(0):
            if app is not None and app.name == name:
                return app
        time.sleep(0.25)
    return None


def named(app, role):
    """The names of the nodes with AT-SPI role `role` ("page tab", "push button", ...)."""
    out = []
    for n in nodes(app):
        try:
            if n.getRoleName() == role:
                out.append(n.name)
        except Exception:
            pass
    return out


def frame_slider(app):
    for n in nodes(app):
        try:
            # The timeline's Frame field: a spin button (AccessKit's SpinButton) with the frame as its value.
            if n.getRoleName() in ("spin button", "slider") and n.name == "Frame":
                return n
        except Exception:
            pass
    return None


def frame(app):
    slider = frame_slider(app)
    return None if slider is None else slider.queryValue().currentValue


def wait_for(what, check):
    deadline = time.time() + TIMEOUT / 4
    while time.time() < deadline:
        value = what()
        if check(value):
            return value
        time.sleep(0.1)
    return what()


def press(key):
    # Focus the window first: Xvfb has no window manager to give it the keyboard.
    subprocess.run(["xdotool", "search", "--sync", "--name", "rigscope", "windowfocus", "--sync"], check=True,
                   timeout=TIMEOUT)
    subprocess.run(["xdotool", "key", "--clearmodifiers", key], check=True, timeout=TIMEOUT)


def main():
    report = {}
    app = find_app("rigscope")
    if app is None:
        report["error"] = "no application named rigscope on the accessibility bus"
        print(json.dumps(report))
        return
    # The tree is built once a client asks: wait for the panels to appear in it.
    wait_for(lambda: named(app, "page tab"), lambda tabs: len(tabs) >= 8)
    report["tabs"] = named(app, "page tab")
    report["buttons"] = named(app, "push button")
    report["frame_start"] = wait_for(lambda: frame(app), lambda f: f is not None)
    # Pause through the screen reader's action on the button, as Orca's "activate" does.
    for n in nodes(app):
        try:
            if n.getRoleName() == "push button" and n.name == "Pause":
                n.queryAction().doAction(0)
                break
        except Exception:
            pass
    report["paused"] = "Play" in wait_for(lambda: named(app, "push button"), lambda b: "Play" in b)
    press("Home")
    report["frame_after_home"] = wait_for(lambda: frame(app), lambda f: f == 0.0)
    press("Right")
    report["frame_after_right"] = wait_for(lambda: frame(app), lambda f: f == 1.0)
    print(json.dumps(report))


if __name__ == "__main__":
    try:
        main()
    except Exception as e:  # Reported, not raised: the Rust test prints it.
        print(json.dumps({"error": repr(e)}))
        sys.exit(0)
