//! The module picture has no import that runs up the layers: every `crate::<module>` path in a
//! crate's code (comments excluded) names a module of a lower layer than the one it is in. The
//! layers, lowest first, are listed here; a new module must be added to its crate's list.
// Test code may unwrap, index and panic (the workspace lints deny them in the library).
#![allow(clippy::restriction)]

use std::fs;
use std::path::Path;

/// crates/core: numbers, number text, errors, data types, value conversion, buffers, kernels.
const CORE: &[&[&str]] = &[
    &["num", "direction", "test_rng"],
    &["decimal"],
    &["text"],
    &["error"],
    &["dtype"],
    &["cast", "buf"],
    &["kernels"],
    &["lib"],
];

/// The main crate: reports, JSON, codecs, chains, documents, API arguments, CF, bindings.
/// `lib` (the public API) sits below `wasm`, the JS bindings, which convert that API's values and
/// nothing else; `kernel_tests` is a test module at the top. lib.rs's `internals` module (hidden,
/// for this crate's own tests: it re-exports every module) is not checked. The numeric core is a crate of its own, named by its crate
/// name (`zarr_scale_offset_core::dtype`): no `crate::` path names it (see
/// `the_core_crate_is_named_by_its_name`).
const MAIN: &[&[&str]] = &[
    &["report"],
    &["json"],
    &["codec"],
    &["chain"],
    &["v2"],
    &["metadata"],
    &["args"],
    &["bound"],
    &["cf", "cf_document"],
    &["lib"],
    &["wasm", "kernel_tests"],
];

/// The modules of the core crate (the files of crates/core/src).
fn core_modules() -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("crates/core/src");
    let mut fs_ = Vec::new();
    files(&root, &root, &mut fs_);
    let mut m: Vec<String> = fs_
        .into_iter()
        .map(|(m, _)| m)
        .filter(|m| m != "lib")
        .collect();
    m.sort();
    m.dedup();
    m
}

fn layer(layers: &[&[&str]], m: &str) -> Option<usize> {
    layers.iter().position(|l| l.contains(&m))
}

/// `(module, file)` for every .rs file below `dir` (the module is the first path component).
fn files(dir: &Path, root: &Path, out: &mut Vec<(String, String)>) {
    for e in fs::read_dir(dir).unwrap() {
        let p = e.unwrap().path();
        if p.is_dir() {
            files(&p, root, out);
        } else if p.extension().is_some_and(|x| x == "rs") {
            let rel = p.strip_prefix(root).unwrap().to_string_lossy().to_string();
            let m = rel
                .split('/')
                .next()
                .unwrap()
                .trim_end_matches(".rs")
                .to_string();
            out.push((m, rel));
        }
    }
}

/// Every `crate::x` of `text` outside comments.
fn crate_paths(text: &str) -> Vec<String> {
    let mut v = Vec::new();
    for line in text.lines() {
        let code = line.split("//").next().unwrap();
        let mut rest = code;
        while let Some(i) = rest.find("crate::") {
            let after = &rest[i + 7..];
            let name: String = after
                .chars()
                .take_while(|c| c.is_alphanumeric() || *c == '_')
                .collect();
            if !name.is_empty() {
                v.push(name);
            }
            rest = after;
        }
    }
    v
}

/// `text` without lib.rs's `pub mod internals { ... }` (from its line to the first line that is
/// only `}`): the module through which this crate's tests reach every module.
fn without_internals(text: &str) -> String {
    let mut out = String::new();
    let mut inside = false;
    for line in text.lines() {
        if line.starts_with("pub mod internals") {
            inside = true;
        } else if inside && line == "}" {
            inside = false;
        } else if !inside {
            out.push_str(line);
            out.push('\n');
        }
    }
    out
}

/// The upward imports among `(module, file name, text)`.
fn violations(layers: &[&[&str]], sources: &[(String, String, String)]) -> Vec<String> {
    let mut bad = Vec::new();
    for (m, rel, text) in sources {
        let Some(from) = layer(layers, m) else {
            bad.push(format!(
                "{rel}: module {m} is in no layer of tests/layers.rs"
            ));
            continue;
        };
        for to in crate_paths(text) {
            match layer(layers, &to) {
                _ if to == *m => {}
                Some(l) if l < from => {}
                Some(_) => bad.push(format!("{rel}: {m} uses crate::{to}, not a lower layer")),
                // A crate-root item (a function or type of lib.rs): only the top may use it.
                None if from == layers.len() - 1 => {}
                None => bad.push(format!("{rel}: {m} uses crate::{to} (the crate root)")),
            }
        }
    }
    bad
}

fn check(dir: &str, layers: &[&[&str]]) -> Vec<String> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join(dir);
    let mut fs_ = Vec::new();
    files(&root, &root, &mut fs_);
    let sources: Vec<_> = fs_
        .into_iter()
        .map(|(m, rel)| {
            let text = fs::read_to_string(root.join(&rel)).unwrap();
            (m, format!("{dir}/{rel}"), without_internals(&text))
        })
        .collect();
    violations(layers, &sources)
}

#[test]
fn core_imports_only_run_down() {
    let bad = check("crates/core/src", CORE);
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

#[test]
fn main_imports_only_run_down() {
    let bad = check("src", MAIN);
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// The main crate names the core crate by its own name: no `crate::dtype`-style path (which
/// would only resolve through a re-export that looks like a local module), and no `pub use` of
/// a core module (`pub use zarr_scale_offset_core::dtype;` or `{dtype, ...}`).
#[test]
fn the_core_crate_is_named_by_its_name() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("src");
    let mut fs_ = Vec::new();
    files(&root, &root, &mut fs_);
    let core = core_modules();
    assert!(
        core.len() >= 9 && core.contains(&"dtype".to_string()),
        "{core:?}"
    );
    let mut bad = Vec::new();
    for (_, rel) in fs_ {
        let text = fs::read_to_string(root.join(&rel)).unwrap();
        for name in crate_paths(&text) {
            if core.contains(&name) {
                bad.push(format!("src/{rel}: crate::{name}"));
            }
        }
        for line in text
            .lines()
            .filter(|l| l.trim_start().starts_with("pub use"))
        {
            let code = line.split("//").next().unwrap();
            let Some(rest) = code.split("zarr_scale_offset_core::").nth(1) else {
                continue;
            };
            let rest = rest.trim_end().trim_end_matches(';');
            let names: Vec<&str> = match rest.strip_prefix('{') {
                Some(list) => list
                    .trim_end_matches('}')
                    .split(',')
                    .map(str::trim)
                    .collect(),
                None => vec![rest.trim()],
            };
            if names.iter().any(|n| core.contains(&n.to_string())) {
                bad.push(format!("src/{rel}: {}", line.trim()));
            }
        }
    }
    assert!(bad.is_empty(), "{}", bad.join("\n"));
}

/// The check itself: an import up the layers, or across one layer, is found; comments are not
/// code.
#[test]
fn an_upward_import_is_reported() {
    assert_eq!(
        crate_paths("use crate::chain::X; // crate::wasm"),
        ["chain"]
    );
    let src = |m: &str, text: &str| (m.to_string(), format!("{m}.rs"), text.to_string());
    let bad = violations(
        MAIN,
        &[
            src("codec", "use crate::chain::ArrayChain;"),
            src("chain", "use crate::codec::lookup; // crate::wasm"),
            src("json", "use crate::codec::lookup;"),
            src("json", "let x = crate::encode_chunk;"),
            src("nowhere", ""),
        ],
    );
    assert_eq!(bad.len(), 4, "{bad:?}");
    assert!(bad[0].contains("codec uses crate::chain"), "{bad:?}");
    assert!(bad[1].contains("json uses crate::codec"), "{bad:?}");
    assert!(bad[2].contains("the crate root"), "{bad:?}");
    assert!(bad[3].contains("in no layer"), "{bad:?}");
}

/// docs/LAYOUT.md matches the tree: it names every source file of both crates (or, for
/// `num/` and `kernels/`, described as a whole, the folder), and every file it names exists.
#[test]
fn layout_md_names_every_file() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let doc = fs::read_to_string(root.join("docs/LAYOUT.md")).unwrap();
    let mut missing = Vec::new();
    for dir in ["src", "crates/core/src", "crates/unpack/src"] {
        let mut fs_ = Vec::new();
        files(&root.join(dir), &root.join(dir), &mut fs_);
        for (m, rel) in fs_ {
            let whole = ["num", "kernels"].contains(&m.as_str()) && rel.contains('/');
            let named = if whole { format!("{m}/") } else { rel.clone() };
            if !doc.contains(&named) {
                missing.push(format!("{dir}/{rel}"));
            }
        }
    }
    assert!(
        missing.is_empty(),
        "docs/LAYOUT.md does not name {missing:?}"
    );
    // The other way: every `something.rs` the tree picture names exists somewhere.
    let picture = doc.split("```").nth(1).unwrap();
    for word in picture.split_whitespace().filter(|w| w.ends_with(".rs")) {
        let found = [
            "src",
            "crates/core/src",
            "crates/core",
            "crates/unpack",
            ".",
            "tests",
        ]
        .iter()
        .any(|d| root.join(d).join(word).exists());
        assert!(found, "docs/LAYOUT.md names {word}, which does not exist");
    }
}
