//! `sudoku-lab`: reproduce published experiments of stochastic Sudoku solvers, run studies of
//! your own, and compare algorithms with proper statistics.
//!
//! The runner by role, one folder a room:
//! - [`cli`] - the command line, one file per command (clap's definitions in `cli/args.rs`);
//! - [`spec`] - experiment specs: parsing, validation, puzzle loading, the embedded files;
//! - [`algos`] - the algorithm registry: a name and options -> a configured solver;
//! - [`protocol`] - the plan, its runs in parallel, runs.csv and meta.json, resume, the folder
//!   lock, progress, shards and their merge, replay;
//! - [`reports`] - every report and chart written from runs.csv, behind one dispatcher;
//! - [`export`] - results in other tools' formats (LaTeX, Markdown, IOHprofiler);
//! - [`readings`] - `sudoku-lab readings`: a paper's readings raced against its table;
//! - [`site`] - the static HTML site of every results folder (`sudoku-lab report`).
//!
//! Dependencies point one way: `cli` -> `site`, `reports` -> `export`, `protocol` -> `spec`
//! -> `algos` (a test, `layers_import_downwards_only`, checks it).

mod algos;
mod cli;
mod export;
#[cfg(test)]
mod fuzz;
mod protocol;
mod readings;
mod reports;
mod site;
mod spec;

use std::process::ExitCode;

fn main() -> ExitCode {
    // Output piped into `head` and the like: end quietly when the reader goes away, as Unix
    // tools do, instead of panicking on a failed print (Rust ignores SIGPIPE by default).
    #[cfg(unix)]
    // SAFETY: restoring the default disposition of SIGPIPE at start-up, before any thread or
    // I/O exists.
    unsafe {
        libc::signal(libc::SIGPIPE, libc::SIG_DFL);
    }
    #[cfg(unix)]
    end_on_signals();
    let code = cli::run();
    protocol::run::wait_if_interrupted();
    code
}

/// Ctrl-C (SIGINT), SIGTERM and SIGHUP (a closed terminal, a dropped ssh session): every live
/// external solver's process group is ended (they run in groups of their own, which a
/// terminal's signals do not reach), then the runner exits with 128 + the signal's number (130,
/// 143, 129), saying on stderr how many runs the folder keeps and the command that continues
/// it. Not in the middle of appending a run to runs.csv: the folder holds whole rows and
/// is resumable. The signals are blocked in every thread (set here, before any other thread
/// exists, and inherited) and taken by one thread with sigwait, so no code runs in a signal
/// handler; solver processes start with an empty mask (`external::process` resets it). A signal
/// ignored at start stays ignored (SIGHUP under `nohup`, SIGINT in a shell script's background
/// job): a blocked signal is queued even when its disposition is to ignore it, so such a
/// signal is left out of the set.
#[cfg(unix)]
fn end_on_signals() {
    // SAFETY: sigset_t and sigaction are plain data, initialised (sigemptyset, zeroed) before
    // use; sigaction with no new action, pthread_sigmask and sigwait read them and touch no
    // other memory.
    unsafe {
        let mut set: libc::sigset_t = std::mem::zeroed();
        libc::sigemptyset(&mut set);
        for signal in [libc::SIGINT, libc::SIGTERM, libc::SIGHUP] {
            let mut now: libc::sigaction = std::mem::zeroed();
            let queried = libc::sigaction(signal, std::ptr::null(), &mut now) == 0;
            if queried && now.sa_sigaction != libc::SIG_IGN {
                libc::sigaddset(&mut set, signal);
            }
        }
        if libc::pthread_sigmask(libc::SIG_BLOCK, &set, std::ptr::null_mut()) != 0 {
            return;
        }
        std::thread::spawn(move || {
            let mut sig = 0;
            if libc::sigwait(&set, &mut sig) == 0 {
                external::process::interrupt();
                let _whole_rows = protocol::run::hold_appends();
                eprintln!("\n{}", protocol::run::interruption_note());
                std::process::exit(128 + sig);
            }
        });
    }
}
