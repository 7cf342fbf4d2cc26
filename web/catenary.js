// catenary's miniquad plugin: what the wasm app asks of the page.
// Strings arrive as (pointer, length) of UTF-8 in the wasm memory.
"use strict";
(function () {
    let fragment = null; // the decoded #scene= text, between _len and _copy
    const text = (ptr, len) => new TextDecoder().decode(new Uint8Array(wasm_memory.buffer, ptr, len));
    const sceneInHash = () => {
        const hash = window.location.hash;
        if (!hash.startsWith("#scene=")) return "";
        try {
            return decodeURIComponent(hash.slice("#scene=".length));
        } catch (e) {
            console.error("catenary: the link's scene is not valid percent-encoding", e);
            return "";
        }
    };
    miniquad_add_plugin({
        name: "catenary",
        version: 1,
        register_plugin: function (importObject) {
            importObject.env.catenary_now = () => performance.now() / 1000;
            importObject.env.catenary_set_title = (ptr, len) => { document.title = text(ptr, len); };
            importObject.env.catenary_download = (namePtr, nameLen, ptr, len) => {
                const blob = new Blob([text(ptr, len)], { type: "text/plain" });
                const a = document.createElement("a");
                a.href = URL.createObjectURL(blob);
                a.download = text(namePtr, nameLen);
                document.body.appendChild(a);
                a.click();
                a.remove();
                setTimeout(() => URL.revokeObjectURL(a.href), 10000);
            };
            importObject.env.catenary_share = (ptr, len) => {
                const url = window.location.origin + window.location.pathname +
                    window.location.search + "#scene=" + encodeURIComponent(text(ptr, len));
                window.history.replaceState(null, "", url);
                if (navigator.clipboard) {
                    navigator.clipboard.writeText(url).catch((e) =>
                        console.warn("catenary: the clipboard refused the link; copy it from the address bar", e));
                }
            };
            importObject.env.catenary_fragment_len = () => {
                fragment = new TextEncoder().encode(sceneInHash());
                return fragment.length;
            };
            importObject.env.catenary_fragment_copy = (ptr) => {
                new Uint8Array(wasm_memory.buffer, ptr, fragment.length).set(fragment);
                fragment = null;
            };
            importObject.env.catenary_test_mode = () =>
                new URLSearchParams(window.location.search).has("test") ? 1 : 0;
        },
    });
})();
