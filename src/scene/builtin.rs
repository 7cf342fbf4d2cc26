//! Every scene of `scenes/`, built into the binary: the window lists them
//! wherever it is started, and the web build has no files at all.

/// (file name, RON text) of every shipped scene, in file-name order.
pub const BUILTIN: &[(&str, &str)] = &[
    (
        "balloon_on_string.ron",
        include_str!("../../scenes/balloon_on_string.ron"),
    ),
    ("catenary.ron", include_str!("../../scenes/catenary.ron")),
    (
        "cloth_dihedral.ron",
        include_str!("../../scenes/cloth_dihedral.ron"),
    ),
    (
        "cloth_on_sphere.ron",
        include_str!("../../scenes/cloth_on_sphere.ron"),
    ),
    ("curtain.ron", include_str!("../../scenes/curtain.ron")),
    (
        "curtain_128.ron",
        include_str!("../../scenes/curtain_128.ron"),
    ),
    ("default.ron", include_str!("../../scenes/default.ron")),
    (
        "double_pendulum.ron",
        include_str!("../../scenes/double_pendulum.ron"),
    ),
    (
        "flag_in_wind.ron",
        include_str!("../../scenes/flag_in_wind.ron"),
    ),
    ("hair.ron", include_str!("../../scenes/hair.ron")),
    ("hammock.ron", include_str!("../../scenes/hammock.ron")),
    (
        "hanging_chain.ron",
        include_str!("../../scenes/hanging_chain.ron"),
    ),
    ("hinges.ron", include_str!("../../scenes/hinges.ron")),
    (
        "lesson_damping.ron",
        include_str!("../../scenes/lesson_damping.ron"),
    ),
    (
        "lesson_paper_chain.ron",
        include_str!("../../scenes/lesson_paper_chain.ron"),
    ),
    (
        "lesson_soft_catenary.ron",
        include_str!("../../scenes/lesson_soft_catenary.ron"),
    ),
    (
        "lesson_soft_chain.ron",
        include_str!("../../scenes/lesson_soft_chain.ron"),
    ),
    (
        "lesson_spring.ron",
        include_str!("../../scenes/lesson_spring.ron"),
    ),
    (
        "lesson_substeps_vs_iterations.ron",
        include_str!("../../scenes/lesson_substeps_vs_iterations.ron"),
    ),
    (
        "lesson_tethers.ron",
        include_str!("../../scenes/lesson_tethers.ron"),
    ),
    (
        "light_and_shadow.ron",
        include_str!("../../scenes/light_and_shadow.ron"),
    ),
    ("pendulum.ron", include_str!("../../scenes/pendulum.ron")),
    (
        "plank_bridge.ron",
        include_str!("../../scenes/plank_bridge.ron"),
    ),
    (
        "playground.ron",
        include_str!("../../scenes/playground.ron"),
    ),
    (
        "plectoneme.ron",
        include_str!("../../scenes/plectoneme.ron"),
    ),
    (
        "rod_cantilever.ron",
        include_str!("../../scenes/rod_cantilever.ron"),
    ),
    (
        "rope_bridge.ron",
        include_str!("../../scenes/rope_bridge.ron"),
    ),
    ("rope_pile.ron", include_str!("../../scenes/rope_pile.ron")),
    (
        "soft_bodies.ron",
        include_str!("../../scenes/soft_bodies.ron"),
    ),
    (
        "soft_materials.ron",
        include_str!("../../scenes/soft_materials.ron"),
    ),
    (
        "soft_wrecking_ball.ron",
        include_str!("../../scenes/soft_wrecking_ball.ron"),
    ),
    ("swing.ron", include_str!("../../scenes/swing.ron")),
    (
        "tear_apart.ron",
        include_str!("../../scenes/tear_apart.ron"),
    ),
    ("tearing.ron", include_str!("../../scenes/tearing.ron")),
    (
        "thin_shelf.ron",
        include_str!("../../scenes/thin_shelf.ron"),
    ),
    (
        "tied_hammock.ron",
        include_str!("../../scenes/tied_hammock.ron"),
    ),
    (
        "tumbling_box.ron",
        include_str!("../../scenes/tumbling_box.ron"),
    ),
    (
        "twisted_cable.ron",
        include_str!("../../scenes/twisted_cable.ron"),
    ),
    ("waves.ron", include_str!("../../scenes/waves.ron")),
    (
        "wrecking_ball.ron",
        include_str!("../../scenes/wrecking_ball.ron"),
    ),
];

/// The scene the window opens when given none.
pub const DEFAULT_SCENE: &str = include_str!("../../scenes/default.ron");

/// The text of the built-in scene `name` (e.g. `"curtain.ron"`).
pub fn builtin(name: &str) -> Option<&'static str> {
    BUILTIN
        .iter()
        .find(|(n, _)| *n == name)
        .map(|(_, text)| *text)
}
