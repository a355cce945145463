#!/usr/bin/env python3
"""Code bytes of a .wasm per crate, from its name section (web/build.sh strips it from the page's build; run
wasm-bindgen without --remove-name-section, or on cargo's own output, to keep it). Usage:
    tools/wasm_sizes.py target/wasm32-unknown-unknown/web-release/rigscope.wasm [--top N]
Function names are Rust's mangled symbols (legacy `_ZN...E` or v0 `_R...`); the first path component is the
crate. Data segments are reported as one line."""
import re
import sys
from collections import Counter


def leb(data, i):
    result = shift = 0
    while True:
        b = data[i]
        i += 1
        result |= (b & 0x7F) << shift
        shift += 7
        if b < 0x80:
            return result, i


def sections(data):
    i = 8
    while i < len(data):
        sid = data[i]
        size, j = leb(data, i + 1)
        yield sid, data[j:j + size]
        i = j + size


def crate_of(name):
    m = re.match(r"_ZN(\d+)", name)
    if m:
        n = int(m.group(1))
        return name[m.end():m.end() + n]
    if name.startswith("_R"):
        # v0 mangling: the first crate root, `C`, an optional `s<disambiguator>_`, then `<length><name>`.
        m = re.search(r"C(?:s[0-9a-zA-Z]*_)?(\d+)", name)
        if m:
            n = int(m.group(1))
            return name[m.end():m.end() + n]
    if "::" in name:
        return name.split("::")[0].lstrip("<&")
    return "(other)"


def main():
    path = sys.argv[1]
    top = int(sys.argv[sys.argv.index("--top") + 1]) if "--top" in sys.argv else 25
    data = open(path, "rb").read()
    imports = 0
    bodies = []
    names = {}
    data_bytes = 0
    for sid, body in sections(data):
        if sid == 2:  # imports: functions among them take the first indices
            count, i = leb(body, 0)
            for _ in range(count):
                for _ in range(2):
                    n, i = leb(body, i)
                    i += n
                kind = body[i]
                i += 1
                if kind == 0:
                    _, i = leb(body, i)
                    imports += 1
                elif kind == 1:
                    i += 1
                    flags, i = leb(body, i)
                    _, i = leb(body, i)
                    if flags & 1:
                        _, i = leb(body, i)
                elif kind == 2:
                    flags, i = leb(body, i)
                    _, i = leb(body, i)
                    if flags & 1:
                        _, i = leb(body, i)
                elif kind == 3:
                    i += 2
                else:
                    _, i = leb(body, i)
        elif sid == 10:
            count, i = leb(body, 0)
            for _ in range(count):
                size, j = leb(body, i)
                bodies.append(size + (j - i))
                i = j + size
        elif sid == 11:
            data_bytes += len(body)
        elif sid == 0:
            n, i = leb(body, 0)
            if body[i:i + n] != b"name":
                continue
            i += n
            while i < len(body):
                sub = body[i]
                size, j = leb(body, i + 1)
                if sub == 1:
                    count, k = leb(body, j)
                    for _ in range(count):
                        idx, k = leb(body, k)
                        ln, k = leb(body, k)
                        names[idx] = body[k:k + ln].decode("utf-8", "replace")
                        k += ln
                i = j + size
    if not names:
        sys.exit(f"{path}: no name section")
    per = Counter()
    for k, size in enumerate(bodies):
        per[crate_of(names.get(imports + k, ""))] += size
    total = sum(per.values()) + data_bytes
    print(f"{path}: {len(data)} bytes; code {sum(per.values())}, data {data_bytes}")
    for crate, size in per.most_common(top):
        print(f"{size:>10} {100 * size / total:5.1f}%  {crate}")


if __name__ == "__main__":
    main()
