//! The `catenary` command line (DESIGN.md §4).

use std::path::PathBuf;
use std::process::ExitCode;

use clap::{Parser, Subcommand};

use catenary::headless::{self, Overrides, RunOptions};
use catenary::solver::{Method, limits};

/// Ropes, chains and cloth with XPBD and classic PBD.
#[derive(Parser, Debug)]
#[command(name = "catenary", version, args_conflicts_with_subcommands = true)]
struct Cli {
    #[command(subcommand)]
    command: Option<Command>,
    /// Scene to open in the sandbox window (built-in default scene when none).
    scene: Option<PathBuf>,
    /// Open in compare mode: the scene in two worlds side by side, PBD left and
    /// XPBD right, one hand for both.
    #[arg(long)]
    compare: bool,
    /// Start with shadows off (the panel's Display section switches them).
    #[arg(long)]
    no_shadows: bool,
    /// Start with ropes drawn as chains of interlocking links (the panel's
    /// Display section switches it).
    #[arg(long)]
    chain_links: bool,
    /// Start with anti-aliasing (FXAA) off. Without this or --antialias, the
    /// window measures what it costs in the first frames and keeps it only
    /// when cheap (the panel's Display section switches it).
    #[arg(long, conflicts_with = "antialias")]
    no_antialias: bool,
    /// Start with anti-aliasing (FXAA) on, whatever it costs.
    #[arg(long)]
    antialias: bool,
    /// Start with the colour mode plain, strain or tension (the panel's
    /// Display section switches it).
    #[arg(long, value_name = "MODE", value_parser = ["plain", "strain", "tension"])]
    colour: Option<String>,
    /// Window automation: write the app state (particles with screen positions,
    /// pins, errors) to FILE about 5 times a second.
    #[arg(long, value_name = "FILE")]
    dump_state: Option<PathBuf>,
    /// Window automation: save a PNG of the window to FILE (see --screenshot-after).
    #[arg(long, value_name = "FILE.png", value_parser = parse_png)]
    screenshot: Option<PathBuf>,
    /// Seconds after start for --screenshot.
    #[arg(
        long,
        value_name = "SECONDS",
        default_value_t = 3.0,
        requires = "screenshot"
    )]
    screenshot_after: f32,
    /// Then one more every SECONDS, numbered FILE-000.png, FILE-001.png, … (a
    /// strip of frames; see tools/flick-strip.sh).
    #[arg(long, value_name = "SECONDS", requires = "screenshot",
          value_parser = |s: &str| parse_in(s, limits::SCREENSHOT_EVERY))]
    screenshot_every: Option<f32>,
    /// Window automation: close the window after SECONDS.
    #[arg(long, value_name = "SECONDS")]
    exit_after: Option<f32>,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Simulate a scene without a window and print a summary.
    #[command(group(clap::ArgGroup::new("written").multiple(true)))]
    Run {
        /// The scene file.
        scene: PathBuf,
        /// Frames to simulate.
        #[arg(long, default_value_t = 600)]
        frames: u64,
        /// Override the projection method: pbd | xpbd.
        #[arg(long, value_parser = parse_method)]
        method: Option<Method>,
        /// Override substeps per frame (1–1000).
        #[arg(long, value_parser = clap::value_parser!(u32).range(
            *limits::SUBSTEPS.start() as i64..=*limits::SUBSTEPS.end() as i64))]
        substeps: Option<u32>,
        /// Override Gauss–Seidel passes per substep (1–1000).
        #[arg(long, value_parser = clap::value_parser!(u32).range(
            *limits::ITERATIONS.start() as i64..=*limits::ITERATIONS.end() as i64))]
        iterations: Option<u32>,
        /// Override the frame length in seconds, in [1e-6, 1].
        #[arg(long, value_parser = |s: &str| parse_in(s, limits::DT))]
        dt: Option<f32>,
        /// Override constraint damping β in kg/s, in [0, 1e4].
        #[arg(long, value_parser = |s: &str| parse_in(s, limits::DAMPING))]
        damping: Option<f32>,
        /// Write particle positions as CSV `frame,body,particle,x,y,z`.
        #[arg(long, group = "written")]
        out: Option<PathBuf>,
        /// Write what the window shows for other tools: a folder of OBJ files
        /// (frame_0001.obj, …), or a glTF binary when PATH ends in .glb.
        #[arg(long, value_name = "DIR|FILE.glb", group = "written")]
        export: Option<PathBuf>,
        /// With --out or --export: write frames 0, K, 2K, … and the last
        /// (default: only the last).
        #[arg(long, requires = "written", value_parser = clap::value_parser!(u64).range(1..))]
        every: Option<u64>,
        /// Write the scene with its final `state` to FILE.ron; running that
        /// file continues bit-exactly where this run ended.
        #[arg(long, value_name = "FILE.ron")]
        save: Option<PathBuf>,
    },
    /// Time the solver on an N×N cloth, or on a scene of yours; the last line is
    /// `projections/s: <number>`.
    Bench {
        /// Particles per cloth edge.
        #[arg(long, default_value_t = 128, value_parser = clap::value_parser!(u32).range(2..=1414))]
        size: u32,
        /// Time this scene's solver instead of the cloth (from its start, as
        /// `run` steps it).
        #[arg(long, value_name = "SCENE.ron", conflicts_with = "size")]
        scene: Option<PathBuf>,
        /// Frames to time (the median is reported).
        #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u32).range(1..))]
        frames: u32,
        /// Substeps per frame (default: 20 for the cloth, the scene's own for --scene).
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=1000))]
        substeps: Option<u32>,
        /// Solver threads (1 = sequential; default: all cores).
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=256))]
        threads: Option<u32>,
    },
    /// The small-steps experiment: every split substeps × iterations = BUDGET, both
    /// methods; CSV `method,substeps,iterations,max_strain,max_tension,energy,ms_per_frame`.
    Sweep {
        /// The scene file.
        scene: PathBuf,
        /// Constraint passes per frame, split every way into substeps × iterations.
        #[arg(long, value_parser = clap::value_parser!(u32).range(1..=limits::PASSES_PER_FRAME as i64))]
        budget: u32,
        /// Frames per run.
        #[arg(long, default_value_t = 300, value_parser = clap::value_parser!(u32).range(1..))]
        frames: u32,
        /// Write the CSV here (default: standard output).
        #[arg(long)]
        out: Option<PathBuf>,
    },
    /// Replay a recorded session (Record in the window) headless and print a summary.
    Replay {
        /// The recording file.
        recording: PathBuf,
    },
    /// Validate scene files (and recordings, `*.rec.ron`); print every error; exit 1 if any.
    Check {
        /// The scene files (a name ending in .rec.ron is read as a recording).
        #[arg(required = true)]
        scenes: Vec<PathBuf>,
    },
}

fn parse_png(s: &str) -> Result<PathBuf, String> {
    if s.to_ascii_lowercase().ends_with(".png") {
        Ok(PathBuf::from(s))
    } else {
        Err(format!(
            "{s}: screenshots are PNG files: give a name ending in .png"
        ))
    }
}

fn parse_method(s: &str) -> Result<Method, String> {
    Method::from_name(s).ok_or_else(|| format!("`{s}` is not a method: accepted pbd | xpbd"))
}

/// A number within `bounds` (the same ranges as scene files and sliders).
fn parse_in(s: &str, bounds: limits::Bounds) -> Result<f32, String> {
    let v: f32 = s.parse().map_err(|e| format!("{e}"))?;
    if bounds.contains(v) {
        Ok(v)
    } else {
        Err(format!(
            "{s} is outside the accepted range {}",
            bounds.describe()
        ))
    }
}

pub fn main() -> ExitCode {
    let cli = Cli::parse();
    remove_temp_files_on_signals();
    let result = match cli.command {
        Some(Command::Run {
            scene,
            frames,
            method,
            substeps,
            iterations,
            dt,
            damping,
            out,
            export,
            every,
            save,
        }) => {
            let overrides = Overrides {
                method,
                substeps,
                iterations,
                dt,
                damping,
            };
            headless::run(
                &scene,
                &overrides,
                &RunOptions {
                    frames,
                    out,
                    export,
                    every,
                    save,
                },
            )
        }
        Some(Command::Bench {
            size,
            scene,
            frames,
            substeps,
            threads,
        }) => headless::bench(&headless::BenchOptions {
            size,
            scene,
            frames,
            substeps,
            threads: threads.map_or_else(catenary::solver::available_threads, |t| t as usize),
        }),
        Some(Command::Sweep {
            scene,
            budget,
            frames,
            out,
        }) => catenary::sweep::run(&scene, budget, frames, out.as_deref()),
        Some(Command::Replay { recording }) => catenary::record::run(&recording),
        Some(Command::Check { scenes }) => match headless::check(&scenes) {
            Ok(false) => return ExitCode::FAILURE,
            other => other.map(|_| ()),
        },
        #[cfg(not(feature = "window"))]
        None => Err(anyhow::anyhow!(
            "this catenary was built without its window (cargo feature `window`); \
             headless use: `catenary run SCENE.ron` or `catenary check SCENE.ron`"
        )),
        #[cfg(feature = "window")]
        None => {
            // Held until the program ends (see `display`).
            let _probe = match crate::display::check() {
                Ok(probe) => probe,
                Err(why) => {
                    headless::tell(format_args!(
                        "error: {why}: the sandbox needs a window; \
                         headless use: `catenary run SCENE.ron` or `catenary check SCENE.ron`"
                    ));
                    return ExitCode::FAILURE;
                }
            };
            catenary::app::run(catenary::app::Options {
                scene: cli.scene,
                dump_state: cli.dump_state,
                screenshot: cli.screenshot.map(|f| (cli.screenshot_after, f)),
                screenshot_every: cli.screenshot_every,
                exit_after: cli.exit_after,
                compare: cli.compare,
                no_shadows: cli.no_shadows,
                chain_links: cli.chain_links,
                antialias: match (cli.antialias, cli.no_antialias) {
                    (true, _) => Some(true),
                    (_, true) => Some(false),
                    _ => None,
                },
                colour: cli.colour,
            });
            Ok(())
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        // The reader went away (`catenary run … | head`): nothing to say.
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            // Every line of a multi-error report gets the prefix, as in `check`.
            for line in report(&e).lines() {
                headless::tell(format_args!("error: {line}"));
            }
            ExitCode::FAILURE
        }
    }
}

/// SIGINT, SIGTERM and SIGHUP (Ctrl+C, `kill`, a closed terminal) end the
/// program as they would, exit status 128 + the signal, but first remove
/// the temp files of output not yet complete (`run --out`, `sweep --out`,
/// Save as): an interrupted run leaves neither a partial file under the
/// asked-for name nor a stray temp file.
fn remove_temp_files_on_signals() {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGTERM};
    let Ok(mut signals) = signal_hook::iterator::Signals::new([SIGINT, SIGTERM, SIGHUP]) else {
        return; // the default handlers stay: temp files may be left, nothing worse
    };
    std::thread::spawn(move || {
        if let Some(signal) = signals.forever().next() {
            catenary::scene::remove_unfinished();
            std::process::exit(128 + signal);
        }
    });
}

fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain()
        .filter_map(|c| c.downcast_ref::<std::io::Error>())
        .any(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
}

/// The error and its causes, skipping a cause the message already quotes
/// (scene errors include their OS error in their own text).
fn report(e: &anyhow::Error) -> String {
    let mut text = e.to_string();
    for cause in e.chain().skip(1) {
        let cause = cause.to_string();
        if !text.contains(&cause) {
            text = format!("{text}: {cause}");
        }
    }
    text
}
