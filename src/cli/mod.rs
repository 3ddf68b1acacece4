//! Command-line definitions (clap) and dispatch. Clap types stay here; each subcommand turns
//! its flags into the library's plain types and calls the library.

mod args;
mod batch;
mod bot;
mod html;
mod kb;
mod play;
mod serve;
mod solve;
mod text;
mod trace;
mod world;

use anyhow::Result;
use clap::{Parser, Subcommand};
use std::fmt;

/// Plays the Hunt-the-Wumpus family of games by logic.
#[derive(Parser, Debug)]
#[command(name = "wumpus", version, about, long_about = None, after_help = "\
Examples:
  wumpus solve                               the main job: 1000 random 5x5 worlds, the risk agent
  wumpus solve --rules aima --worlds 10000   the textbook's rules, with a heading and turns
  wumpus trace --seed 7                      one game, step by step, with every proof
  wumpus play --rules cave                   play the classic cave by hand (hint asks the agent)
  wumpus serve --open                        the live page: play, hint, watch the agent
  wumpus solve --help                        every flag of a command, with its examples

Every command plays every rule set: --rules grid (default), aima, cave or maze.
The docs: README.md, and docs/tutorial.md for a walk through the commands.")]
pub struct Args {
    #[command(subcommand)]
    command: Command,
}

#[derive(Subcommand, Debug)]
enum Command {
    /// Run the agent on many random worlds and print statistics (the main job).
    #[command(after_help = "\
Examples:
  wumpus solve                                   1000 random 5x5 worlds, the risk agent
  wumpus solve --worlds 10000 --size 4x4 --json
  wumpus solve --scoring aima --threads 1        one core, textbook scoring
  wumpus solve --worlds 1000000 --csv games.csv   one row per game, the table as usual
  wumpus solve --csv - --worlds 100 | head        rows on standard output
  wumpus solve --shard 2/4 --json > part2.json   a quarter of the batch; see wumpus merge
  wumpus solve --rules cave --agent random --worlds 10000
  wumpus solve --rules cave --map worlds/cave-mobius.txt --seed 500 --json")]
    Solve(solve::SolveArgs),
    /// Step through one game: percepts, what the knowledge base proved and why, each action.
    #[command(after_help = "\
Examples:
  wumpus trace --world worlds/seed-example.txt
  wumpus trace --seed 7 --step                 wait for Enter between steps
  wumpus trace --seed 7 --json                 JSON Lines, schema in docs/trace-json.md
  wumpus trace --seed 7 --html game.html       a page that replays the game, step by step
  wumpus trace --rules cave --seed 3          the classic cave: proofs, odds and reasons
  wumpus trace --rules maze --seed 3 --html maze.html")]
    Trace(trace::TraceArgs),
    /// Play a game by hand, reading commands from standard input.
    #[command(after_help = "\
Examples:
  wumpus play                          a random 5x5 world
  wumpus play --seed 42 --size 8x8     replay world 42 on an 8x8 grid
  wumpus play --world worlds/seed-example.txt
  printf 'n\\nfire north\\n' | wumpus play --world worlds/seed-example.txt
  wumpus play --rules cave --seed 7                the classic cave
  wumpus play --rules cave --map worlds/cave-mobius.txt --variant yob
  wumpus play --rules maze                         the caves.dat maze")]
    Play(play::PlayArgs),
    /// Make, check and draw world files.
    #[command(
        subcommand,
        after_help = "\
Examples:
  wumpus world new --seed 7 -o my-world.txt
  wumpus world check my-world.txt
  wumpus world show worlds/seed-example.txt"
    )]
    World(world::WorldCommand),
    /// Write the grounded knowledge base of a traced game as DIMACS CNF, for any SAT solver.
    #[command(after_help = "\
Examples:
  wumpus kb --dimacs --world worlds/seed-example.txt            at the end of the game
  wumpus kb --dimacs --seed 7 --step 3 > step3.cnf              after step 3 of trace --seed 7
  wumpus kb --dimacs --seed 7 --step 3 | grep '^c var'          the variable table
  wumpus kb --dimacs --rules cave --seed 3 --step 2              the classic cave's")]
    Kb(kb::KbArgs),
    /// Add up the JSON summaries of a batch's shards (`solve --shard K/N --json`).
    #[command(after_help = "\
Examples:
  wumpus solve --worlds 1000000 --shard 1/2 --json > part1.json     on one machine
  wumpus solve --worlds 1000000 --shard 2/2 --json > part2.json     on another
  wumpus merge part1.json part2.json                                 the whole batch's table
  wumpus merge part*.json --json                                     any rule set's shards")]
    Merge(solve::MergeArgs),
    /// Print a shell completion script.
    #[command(after_help = "\
Examples:
  source <(wumpus completions bash)                          this bash session
  wumpus completions bash > ~/.local/share/bash-completion/completions/wumpus
  wumpus completions zsh > ~/.zfunc/_wumpus                  with fpath+=~/.zfunc
  wumpus completions fish > ~/.config/fish/completions/wumpus.fish")]
    Completions {
        /// The shell.
        shell: clap_complete::Shell,
    },
    /// Play the classic cave or the maze as a bot driven by a game host over standard input
    /// and output.
    #[command(after_help = "\
The rule set is the classic cave unless --rules maze; the grid has no bot protocol. In the
classic cave, --map FILE (or --map-known, for the standard map) gives the agent the map up
front, each game having its room count; without it the agent knows the room count and learns
each room's tunnels by standing in it. In the maze the agent is always given the map (the
standard caves.dat unless --map names one); each game must have its cave count.

The protocols (docs/bot-protocol.md). They number rooms and caves from 0, as the
tournament's game host does; everything else here (play, trace, hints, world show) numbers
them as the map does, from 1.
The classic cave:
  host: game 20
  host: status ROOM PIT BATS WUMPUS out R R R in R R ...
  bot:  move R   or   shoot R1 R2 ...
  host: result moved|snatched|not_an_exit|missed|too_crooked   (then a status)
  host: end won SCORE   or   end lost 0
The maze (--rules maze; a cave's number stands for its name, ? for a tunnel not yet known):
  host: maze 20
  host: status CAVE SMELL HEAR FEEL tunnels T1 T2 T3
  bot:  move T   or   toss T                                  (a tunnel, 1 to 3)
  host: result moved|carried|no_such_tunnel|missed|killed     (then a status)
  host: end won   or   end lost pit|wumpus|out_of_grenades

Examples:
  printf 'game 20\\nstatus 0 0 0 1 out 1 4 7 in 1 4 7\\n' | wumpus bot
  wumpus bot --map worlds/cave-risk.txt        the agent is given the map
  printf 'maze 20\\nstatus 0 0 0 1 tunnels ? ? ?\\n' | wumpus bot --rules maze")]
    Bot(bot::BotArgs),
    /// Print the library's catalogue as JSON: every rule set with its goal, agents and the
    /// options it takes (with their defaults), every option's kind and limits, every agent.
    #[command(after_help = "\
Examples:
  wumpus catalogue | python3 -m json.tool
  wumpus catalogue | jq '.rules[] | {name, agents}'")]
    Catalogue,
    /// Serve the live page: play any rule set in the browser, ask for hints, watch the agent.
    #[command(after_help = "\
The page is at the address printed (127.0.0.1 only, unless --bind says otherwise); every asset
is embedded, nothing is loaded from the network. The HTTP API is in docs/live-page.md.

Examples:
  wumpus serve                         http://127.0.0.1:8017/
  wumpus serve --port 0 --open         any free port, and open the browser on it
  wumpus serve --worlds my-worlds      offer the world and map files of another folder
  wumpus serve --max-games 8 --idle-minutes 10")]
    Serve(serve::ServeArgs),
}

/// Runs the command line.
pub fn run(args: Args) -> Result<()> {
    match args.command {
        Command::Solve(a) => solve::run(a),
        Command::Trace(a) => trace::run(a),
        Command::Play(a) => play::run(a),
        Command::World(c) => world::run(c),
        Command::Merge(a) => solve::merge(a),
        Command::Kb(a) => kb::run(a),
        Command::Completions { shell } => {
            use clap::CommandFactory;
            let mut script = Vec::new();
            clap_complete::generate(shell, &mut Args::command(), "wumpus", &mut script);
            out(String::from_utf8_lossy(&script))
        }
        Command::Bot(a) => bot::run(a),
        Command::Catalogue => {
            out(serde_json::to_string_pretty(&wumpus::game_spec::catalogue())? + "\n")
        }
        Command::Serve(a) => serve::run(a),
    }
}

/// An error caused by the user's input (a malformed file, an impossible request): exit status 2.
#[derive(Debug)]
pub struct BadInput(pub anyhow::Error);

impl fmt::Display for BadInput {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:#}", self.0)
    }
}

impl std::error::Error for BadInput {}

/// The longest line a person may type or pipe to `play` and `trace --step`.
pub const MAX_COMMAND_LINE: usize = 4096;

/// The longest line a game host may send to `bot`.
pub const MAX_PROTOCOL_LINE: usize = 64 * 1024;

/// What reading one bounded line gave.
pub enum Line {
    /// A line (its end of line stripped).
    Text(Vec<u8>),
    /// The end of input.
    End,
}

/// Reads one line of at most `max` bytes (its end of line not counted) into memory, never
/// more: a longer line is refused as bad input naming the limit, whatever follows it (an
/// endless `/dev/zero` included).
pub fn read_bounded_line(
    input: &mut impl std::io::BufRead,
    max: usize,
    number: usize,
) -> Result<Line> {
    let mut line = Vec::new();
    loop {
        let chunk = match input.fill_buf() {
            Ok(chunk) => chunk,
            Err(e) if e.kind() == std::io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e.into()),
        };
        if chunk.is_empty() {
            return Ok(if line.is_empty() {
                Line::End
            } else {
                Line::Text(line)
            });
        }
        let (take, done) = match chunk.iter().position(|&b| b == b'\n') {
            Some(at) => (at, true),
            None => (chunk.len(), false),
        };
        if line.len() + take > max + 1 {
            return Err(bad_input(anyhow::anyhow!(
                "line {number} of standard input is longer than {max} bytes, the most this \
                 command reads in a line"
            )));
        }
        line.extend_from_slice(&chunk[..take]);
        input.consume(take + usize::from(done));
        if done {
            if line.last() == Some(&b'\r') {
                line.pop();
            }
            if line.len() > max {
                return Err(bad_input(anyhow::anyhow!(
                    "line {number} of standard input is longer than {max} bytes, the most \
                     this command reads in a line"
                )));
            }
            return Ok(Line::Text(line));
        }
    }
}

/// Reads one line of typed commands from piped input: `Ok(None)` at the end of input, and
/// `Some(Err(reason))` for a line that is not UTF-8 text, which `play` refuses like any other
/// invalid command (the game goes on). A line longer than [`MAX_COMMAND_LINE`] is bad input.
pub fn read_command_line(
    input: &mut impl std::io::BufRead,
    number: usize,
) -> Result<Option<std::result::Result<String, String>>> {
    let bytes = match read_bounded_line(input, MAX_COMMAND_LINE, number)? {
        Line::End => return Ok(None),
        Line::Text(bytes) => bytes,
    };
    Ok(Some(String::from_utf8(bytes).map_err(|e| {
        format!(
            "the line is not UTF-8 text (byte {} is not)",
            e.utf8_error().valid_up_to() + 1
        )
    })))
}

/// Text that came from input, fit to print on a terminal: its control characters (but tab)
/// written as escapes, so that what a file or a pipe held cannot move the cursor, clear the
/// screen or retitle the window.
pub fn printable(text: &str) -> std::borrow::Cow<'_, str> {
    if !text.chars().any(|c| c.is_control() && c != '\t') {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + 8);
    for c in text.chars() {
        if c.is_control() && c != '\t' {
            out.extend(c.escape_default());
        } else {
            out.push(c);
        }
    }
    std::borrow::Cow::Owned(out)
}

/// Wraps an error as bad input.
pub fn bad_input(e: impl Into<anyhow::Error>) -> anyhow::Error {
    anyhow::Error::new(BadInput(e.into()))
}

/// A job's error for the command line, its options spelled as flags: bad input (status 2)
/// where the input is at fault.
pub fn job_error(e: wumpus::run::JobError) -> anyhow::Error {
    let text = anyhow::anyhow!("{}", e.spelled(wumpus::game_spec::Spelling::Flags));
    if e.is_bad_input() {
        bad_input(text)
    } else {
        text
    }
}

/// A run stopped by Ctrl-C after reporting what it had done: exit status 130.
#[derive(Debug)]
pub struct Interrupted(pub String);

impl fmt::Display for Interrupted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for Interrupted {}

/// What to say of an error, a line each: each of a file's problems on its own line
/// ([`wumpus::run::world::Problems`]), else the error and its causes.
pub fn messages(err: &anyhow::Error) -> Vec<String> {
    let inner = err.downcast_ref::<BadInput>().map_or(err, |bad| &bad.0);
    let problems = inner
        .chain()
        .find_map(|e| e.downcast_ref::<wumpus::run::world::Problems>());
    match problems {
        Some(p) => {
            let mut lines: Vec<String> = p.found.iter().map(|e| e.to_string()).collect();
            if p.more {
                lines.push(format!(
                    "and more: only the first {} problems are listed",
                    wumpus::run::world::MAX_PROBLEMS
                ));
            }
            lines
        }
        None => vec![format!("{err:#}")],
    }
}

/// The exit status for an error: 2 for bad input, 130 for an interrupted run, 1 otherwise;
/// `None` when the error is a
/// closed output pipe (`wumpus trace | head`), which is no failure and needs no message.
pub fn exit_status(err: &anyhow::Error) -> Option<i32> {
    let broken_pipe = err.chain().any(|e| {
        e.downcast_ref::<std::io::Error>()
            .is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    });
    if broken_pipe {
        None
    } else if err.downcast_ref::<BadInput>().is_some() {
        Some(2)
    } else if err.downcast_ref::<Interrupted>().is_some() {
        Some(130)
    } else {
        Some(1)
    }
}

/// Says that a file was written: on standard output, or on standard error when the file was a
/// device or pipe (`-o /dev/stdout`), whose content must not end in the note.
pub fn wrote(path: &std::path::Path, note: String) -> Result<()> {
    if wumpus::files::is_special(path) {
        eprint!("{note}");
        Ok(())
    } else {
        out(note)
    }
}

/// Writes to standard output, returning an error (never panicking) when it is closed.
pub fn out(text: impl AsRef<str>) -> Result<()> {
    use std::io::Write;
    let mut stdout = std::io::stdout().lock();
    stdout.write_all(text.as_ref().as_bytes())?;
    stdout.flush()?;
    Ok(())
}
