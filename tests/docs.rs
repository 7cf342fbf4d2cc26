//! The front door and the reference stay true to the code: the README is
//! short, every field and kind of the scene format is in the scene-format
//! reference, and every local link in the README and docs/ leads to a file.

use std::path::{Path, PathBuf};

fn root() -> &'static Path {
    Path::new(env!("CARGO_MANIFEST_DIR"))
}

fn read(path: &str) -> String {
    std::fs::read_to_string(root().join(path)).unwrap_or_else(|e| panic!("{path}: {e}"))
}

/// Names a serde type of a schema file deserialises: each field of its
/// structs and each variant of its enums, with the type it belongs to.
fn format_names(source: &str) -> Vec<(String, String)> {
    let mut names = Vec::new();
    let (mut derives_deserialize, mut inside): (bool, Option<(String, bool)>) = (false, None);
    for line in source.lines() {
        let t = line.trim();
        if t.starts_with("#[derive(") {
            derives_deserialize = t.contains("Deserialize");
            continue;
        }
        if let Some((ty, is_enum)) = &inside {
            if line.starts_with('}') {
                inside = None;
            } else if line.starts_with("    ") && !line.starts_with("     ") {
                let word: String = t
                    .trim_start_matches("pub ")
                    .chars()
                    .take_while(|c| c.is_alphanumeric() || *c == '_')
                    .collect();
                let is_item = if *is_enum {
                    word.chars().next().is_some_and(char::is_uppercase)
                } else {
                    t.starts_with("pub ") && t.contains(':')
                };
                if is_item && !t.starts_with("//") && !t.starts_with("#[") {
                    names.push((ty.clone(), word));
                }
            }
            continue;
        }
        for (keyword, is_enum) in [("struct ", false), ("enum ", true)] {
            if let Some(rest) = t.trim_start_matches("pub ").strip_prefix(keyword)
                && derives_deserialize
                && t.ends_with('{')
            {
                let ty = rest.split([' ', '{', '<']).next().unwrap().to_string();
                inside = Some((ty, is_enum));
            }
        }
        if !t.starts_with("#[") && !t.starts_with("///") {
            derives_deserialize &= t.is_empty();
        }
    }
    names
}

#[test]
fn the_readme_is_a_front_door_of_at_most_250_lines() {
    let readme = read("README.md");
    let lines = readme.lines().count();
    assert!(lines <= 250, "README.md has {lines} lines");
    // The two set-up commands come first, before any other code block.
    let first_block = readme.split("```").nth(1).expect("a code block");
    assert!(
        first_block.contains("cargo run --release") && first_block.contains("cargo test"),
        "{first_block}"
    );
    // A local server listens on loopback only.
    for text in [readme.as_str(), &read("docs/guide.md")] {
        for line in text.lines().filter(|l| l.contains("http.server")) {
            assert!(line.contains("--bind 127.0.0.1"), "{line}");
        }
    }
}

#[test]
fn every_field_and_kind_of_the_scene_format_is_in_the_scene_format_reference() {
    let reference = read("docs/scene-format.md");
    let mut names = Vec::new();
    let kinds = std::fs::read_dir(root().join("src/scene/bodies")).unwrap();
    let mut files: Vec<String> = (kinds.map(|f| f.unwrap().path()))
        .map(|p| {
            format!(
                "src/scene/bodies/{}",
                p.file_name().unwrap().to_str().unwrap()
            )
        })
        .collect();
    files.push("src/scene/schema.rs".into());
    for file in &files {
        names.extend(format_names(&read(file)));
    }
    // The parser must see the format, or this test checks nothing.
    for (ty, name) in [
        ("ClothDef", "tear_force"),
        ("BodyDef", "Balloon"),
        ("SoftBoxDef", "poisson_ratio"),
    ] {
        assert!(
            names.iter().any(|(t, n)| t == ty && n == name),
            "{ty}::{name} not found in the schema: {names:?}"
        );
    }
    assert!(names.len() > 100, "{} names", names.len());
    // A field as `name:` (the reference's RON blocks); a kind as a word.
    let as_word = |name: &str| {
        reference.match_indices(name).any(|(at, _)| {
            let ident = |c: char| c.is_alphanumeric() || c == '_';
            !reference[..at].ends_with(ident) && !reference[at + name.len()..].starts_with(ident)
        })
    };
    let missing: Vec<String> = (names.iter())
        .filter(|(_, name)| {
            let is_kind = name.chars().next().is_some_and(char::is_uppercase);
            !(reference.contains(&format!("{name}:")) || (is_kind && as_word(name)))
        })
        .map(|(ty, name)| format!("{ty}::{name}"))
        .collect();
    assert!(
        missing.is_empty(),
        "not in docs/scene-format.md: {missing:?}"
    );
}

#[test]
fn every_local_link_in_the_readme_and_docs_leads_to_a_file() {
    let mut pages: Vec<PathBuf> = vec![root().join("README.md")];
    for entry in std::fs::read_dir(root().join("docs")).unwrap() {
        pages.push(entry.unwrap().path());
    }
    let mut broken = Vec::new();
    for page in &pages {
        let text = std::fs::read_to_string(page).unwrap();
        for target in text.split("](").skip(1).filter_map(|s| s.split(')').next()) {
            if target.starts_with("http") || target.starts_with('#') {
                continue;
            }
            let file = target.split('#').next().unwrap();
            if !page.parent().unwrap().join(file).exists() {
                broken.push(format!("{}: {target}", page.display()));
            }
        }
    }
    assert!(broken.is_empty(), "{broken:?}");
}
