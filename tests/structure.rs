//! The app's drawing modules import one another one way only: each of
//! `src/app/render/` may name the ones below it, never one that names it
//! back, so any of them can be read (and changed) knowing only what it
//! imports.

use std::collections::BTreeMap;
use std::path::Path;

/// The imports among the modules of one folder: for each module (the
/// folder's `mod.rs` as "mod"), the sibling modules it names.
fn imports(folder: &Path) -> BTreeMap<String, Vec<String>> {
    let mut sources = BTreeMap::new();
    for entry in std::fs::read_dir(folder).expect("the folder exists") {
        let path = entry.unwrap().path();
        if path.extension().is_some_and(|e| e == "rs") {
            let name = path.file_stem().unwrap().to_string_lossy().into_owned();
            sources.insert(name, std::fs::read_to_string(&path).unwrap());
        }
    }
    let modules: Vec<String> = sources.keys().filter(|n| *n != "mod").cloned().collect();
    let mut graph = BTreeMap::new();
    for (name, text) in &sources {
        let mut named = Vec::new();
        // A unit-test module's `super` is the module itself.
        let code = text.split("#[cfg(test)]").next().unwrap_or_default();
        for line in code.lines().map(str::trim) {
            if line.starts_with("//") || line.starts_with("mod ") || line.starts_with("pub mod ") {
                continue;
            }
            for m in &modules {
                let path = if name == "mod" {
                    format!("{m}::")
                } else {
                    format!("super::{m}")
                };
                if m != name && mentions(line, &path) && !named.contains(m) {
                    named.push(m.clone());
                }
            }
            // A child naming its parent's own items: `super::{Renderer, …}`
            // or `super::Renderer`.
            if name != "mod"
                && line.split("super::").skip(1).any(|rest| {
                    !modules
                        .iter()
                        .any(|m| rest.starts_with(m.as_str()) && !rest[m.len()..].starts_with('_'))
                })
                && !named.iter().any(|n| n == "mod")
            {
                named.push("mod".into());
            }
        }
        graph.insert(name.clone(), named);
    }
    graph
}

/// `line` holds `path` not as the tail of a longer name (`shadow::` in
/// `shadow_map::` or `my_shadow::`).
fn mentions(line: &str, path: &str) -> bool {
    line.match_indices(path).any(|(i, _)| {
        let before = line[..i].chars().next_back();
        let after = line[i + path.len()..].chars().next();
        let starts =
            !before.is_some_and(|c| c.is_alphanumeric() || c == '_') || path.starts_with("super::");
        let ends = path.ends_with("::") || !after.is_some_and(|c| c.is_alphanumeric() || c == '_');
        starts && ends
    })
}

/// A cycle in `graph`, if it has one (depth-first search).
fn cycle(graph: &BTreeMap<String, Vec<String>>) -> Option<Vec<String>> {
    fn visit(
        n: &str,
        graph: &BTreeMap<String, Vec<String>>,
        path: &mut Vec<String>,
        done: &mut Vec<String>,
    ) -> Option<Vec<String>> {
        if let Some(at) = path.iter().position(|p| p == n) {
            let mut c = path[at..].to_vec();
            c.push(n.to_owned());
            return Some(c);
        }
        if done.iter().any(|d| d == n) {
            return None;
        }
        path.push(n.to_owned());
        for next in graph.get(n).into_iter().flatten() {
            if let Some(c) = visit(next, graph, path, done) {
                return Some(c);
            }
        }
        path.pop();
        done.push(n.to_owned());
        None
    }
    let mut done = Vec::new();
    graph
        .keys()
        .find_map(|n| visit(n, graph, &mut Vec::new(), &mut done))
}

#[test]
fn drawing_modules_import_one_another_without_cycles() {
    let graph = imports(&Path::new(env!("CARGO_MANIFEST_DIR")).join("src/app/render"));
    // The check sees what it should: the modules are there, and the ones
    // known to build on others are seen doing so.
    for m in [
        "mod",
        "scenery",
        "shadow",
        "shadow_map",
        "tube",
        "light",
        "mesh",
    ] {
        assert!(graph.contains_key(m), "src/app/render/{m}.rs is missing");
    }
    assert!(
        graph["shadow_map"].contains(&"light".to_owned()),
        "{graph:?}"
    );
    assert!(graph["mod"].contains(&"scenery".to_owned()), "{graph:?}");
    assert!(graph["surface"].contains(&"mod".to_owned()), "{graph:?}");
    assert_eq!(cycle(&graph), None, "imports: {graph:?}");
}

#[test]
fn the_cycle_check_finds_a_cycle() {
    let graph: BTreeMap<String, Vec<String>> = [
        ("mod", vec!["shadow"]),
        ("shadow", vec!["mesh"]),
        ("mesh", vec!["shadow"]),
    ]
    .into_iter()
    .map(|(k, v)| (k.to_owned(), v.into_iter().map(str::to_owned).collect()))
    .collect();
    assert_eq!(
        cycle(&graph),
        Some(vec![
            "mesh".to_owned(),
            "shadow".to_owned(),
            "mesh".to_owned()
        ])
    );
    assert!(mentions(
        "use super::shadow_map::ShadowMap;",
        "super::shadow_map"
    ));
    assert!(!mentions(
        "use super::shadow_map::ShadowMap;",
        "super::shadow"
    ));
    assert!(!mentions("my_shadow::draw()", "shadow::"));
    assert!(mentions("use camera::OrbitCamera;", "camera::"));
}
