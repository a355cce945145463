// Node module resolve hook for the ESM builds of @babylonjs/core and babylon-mmd, which import their own files
// without the ".js" extension and import directories (bundler style). Registered by run.mjs via module.register().
export async function resolve(specifier, context, nextResolve) {
    try {
        return await nextResolve(specifier, context);
    } catch (err) {
        if (err?.code === "ERR_MODULE_NOT_FOUND" && !specifier.endsWith(".js")) {
            return nextResolve(specifier + ".js", context);
        }
        if (err?.code === "ERR_UNSUPPORTED_DIR_IMPORT") {
            return nextResolve(specifier.replace(/\/$/, "") + "/index.js", context);
        }
        throw err;
    }
}
