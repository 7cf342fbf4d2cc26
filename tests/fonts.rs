//! The browser embeds subsets of egui's four fonts (assets/fonts, made by
//! tools/subset_fonts.py; the desktop keeps the full fonts). Every
//! character the sources and the shipped scenes contain that egui's full
//! fonts can draw, the subsets must draw too: otherwise a label, a
//! caption or a message would show a box in the browser only.

use std::collections::BTreeSet;
use std::path::Path;

fn chars_in(dir: &Path, ext: &str, into: &mut BTreeSet<char>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        if path.is_dir() {
            chars_in(&path, ext, into);
        } else if path.extension().is_some_and(|e| e == ext) {
            into.extend(std::fs::read_to_string(&path).unwrap().chars());
        }
    }
}

fn faces(fonts: &[&'static [u8]]) -> Vec<ttf_parser::Face<'static>> {
    fonts
        .iter()
        .map(|data| ttf_parser::Face::parse(data, 0).unwrap())
        .collect()
}

#[test]
fn every_character_the_app_shows_that_egui_can_draw_the_browsers_subset_fonts_draw() {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut shown = BTreeSet::new();
    chars_in(&root.join("src"), "rs", &mut shown);
    chars_in(&root.join("crates"), "rs", &mut shown);
    chars_in(&root.join("scenes"), "ron", &mut shown);
    let full = faces(&[
        epaint_default_fonts::UBUNTU_LIGHT,
        epaint_default_fonts::HACK_REGULAR,
        epaint_default_fonts::NOTO_EMOJI_REGULAR,
        epaint_default_fonts::EMOJI_ICON,
    ]);
    let subsets = faces(&[
        include_bytes!("../assets/fonts/Ubuntu-Light.ttf"),
        include_bytes!("../assets/fonts/Hack-Regular.ttf"),
        include_bytes!("../assets/fonts/NotoEmoji-Regular.ttf"),
        include_bytes!("../assets/fonts/emoji-icon-font.ttf"),
    ]);
    let draws =
        |faces: &[ttf_parser::Face], c: char| faces.iter().any(|f| f.glyph_index(c).is_some());
    let drawable: Vec<char> = shown
        .into_iter()
        .filter(|&c| !c.is_control() && draws(&full, c))
        .collect();
    let missing: String = drawable.iter().filter(|&&c| !draws(&subsets, c)).collect();
    println!(
        "{} characters egui can draw, {} missing from the subsets",
        drawable.len(),
        missing.chars().count()
    );
    assert!(
        drawable.len() > 150,
        "only {} characters found",
        drawable.len()
    );
    assert!(
        missing.is_empty(),
        "the browser's fonts lack {missing:?}: run tools/subset_fonts.py"
    );
}
