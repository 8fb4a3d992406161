// The `granular` command: run or validate a JSON case, or merge the shards of a run. Exit codes: 0
// success, 2 bad input (case, option, command, nothing to resume; nothing is created), 1 unexpected
// failure or an interrupt during a run.
#include <unistd.h>

#include <algorithm>
#include <cctype>
#include <cmath>
#include <cstdlib>
#include <exception>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <optional>
#include <string>
#include <vector>

#include "cli.hpp"
#include "granular/cases/case.hpp"
#include "granular/cases/output_folder.hpp"
#include "granular/cases/packing_ensemble.hpp"
#include "granular/cases/run_into_folder.hpp"
#include "granular/io/file.hpp"
#include "granular/io/provenance.hpp"
#include "granular/io/suggest.hpp"
#if GRANULAR_HAVE_MPI
#include "mpi_run.hpp"
#endif

namespace {

namespace fs = std::filesystem;
using granular::cases::LoadedCase;
using granular::cli::kBadInput;
using granular::cli::kRunFailure;
using granular::cli::kStopped;
using granular::cli::kSuccess;
using granular::cli::Options;
using granular::io::CaseError;

const char* const kUsage =
    "usage: granular run CASE.json [--out DIR] [--threads N] [--backend cpu|cuda] [--resume]\n"
    "                    [--force] [--packings FIRST:LAST] [--checkpoint-interval S] [--quiet]\n"
    "                    [--set /json/pointer=value]...\n"
    "       granular validate CASE.json [--threads N] [--backend cpu|cuda]\n"
    "                    [--set /json/pointer=value]...\n"
    "       granular merge --out DIR [--force] SHARD_DIR...\n"
    "       granular reproduce [PAPER...] [--quick|--full] --out DIR [--threads N]\n"
    "                    [--result ID]... [--max-cost S] [--registry FILE] [--dry-run]\n"
    "       granular cases [show NAME | copy NAME [DIR] [--force]]\n"
    "       granular schema [MODEL]\n"
    "       granular plot sweep|scan|packing|paper|thesis ARGS...\n"
    "       granular COMMAND --help | granular --help | granular --version\n";

// Each command's help: what it does, its options, its exit codes.
struct CommandHelp {
  const char* command;
  const char* text;
};
const CommandHelp kCommandHelp[] = {
    {"run",
     "usage: granular run CASE.json [--out DIR] [--threads N] [--backend cpu|cuda] [--resume]\n"
     "                    [--force] [--packings FIRST:LAST] [--checkpoint-interval S] [--quiet]\n"
     "                    [--set /json/pointer=value]...\n"
     "\n"
     "Validates CASE.json, then runs it and writes its outputs into DIR (docs/outputs.md):\n"
     "the model's CSVs, summary.json last, run.log (the progress and the provenance).\n"
     "CASE.json may be the name of a shipped case (granular cases lists them) where no file\n"
     "of that name is: granular run demo_sweep.\n"
     "\n"
     "  --out DIR               output folder (default: out/<case file stem>)\n"
     "  --threads N             worker threads, N >= 1 (default: the OpenMP default)\n"
     "  --backend cpu|cuda      where packing ensembles run (default: cpu); cuda needs a device\n"
     "  --resume                continue the packing ensemble run in DIR from DIR/checkpoint.bin\n"
     "                          (same case and shard; any backend and thread count)\n"
     "  --force                 run into a folder that holds outputs (another case's, this case's\n"
     "                          or an unfinished run's): removes the files granular writes, keeps\n"
     "                          any others; without it such a folder is refused\n"
     "  --packings FIRST:LAST   a shard: packings FIRST <= r < LAST of every Γ (packing_ensemble)\n"
     "  --checkpoint-interval S seconds of wall time between checkpoints of a packing ensemble\n"
     "                          run (default: 600; 0: none). Ctrl-C or SIGTERM also writes one\n"
     "                          and stops; the checkpoint is removed once summary.json is written\n"
     "  --quiet                 no progress and no notes on stderr (run.log keeps them)\n"
     "  --set /pointer=value    override one key of the case before validation; value is JSON\n"
     "                          when it parses, else a string; null removes the key "
     "(repeatable)\n"},
    {"validate",
     "usage: granular validate CASE.json [--threads N] [--backend cpu|cuda]\n"
     "                    [--set /json/pointer=value]...\n"
     "\n"
     "Checks CASE.json and prints the quantities derived from it (t_c, e_n, dt, ...) and, for\n"
     "a packing ensemble, an estimate of the run's wall time from a short calibration run on\n"
     "the given threads and backend. Writes nothing. CASE.json may be a shipped case's name.\n"
     "\n"
     "  --threads N             threads the estimate assumes (default: the OpenMP default)\n"
     "  --backend cpu|cuda      backend the estimate assumes (default: cpu)\n"
     "  --set /pointer=value    override one key of the case before validation (repeatable)\n"},
    {"merge",
     "usage: granular merge --out DIR [--force] SHARD_DIR...\n"
     "\n"
     "Joins the complete shards of one packing ensemble run (granular run --packings) into DIR:\n"
     "the files a single run writes (docs/outputs.md, \"Shards\"). Every shard's files are\n"
     "verified against its summary.json before anything is written.\n"
     "\n"
     "  --out DIR               the merged run's folder\n"
     "  --force                 merge into a folder that holds outputs\n"},
    {"reproduce",
     "usage: granular reproduce [PAPER...] [--quick|--full] --out DIR [--threads N]\n"
     "                    [--result ID]... [--max-cost S] [--registry FILE] [--dry-run]\n"
     "\n"
     "Reruns the stated results of the papers (thesis, pendulum, billiard, prism, dimer; all\n"
     "when none is named) from the registry, measures each and writes a report that sets the\n"
     "engine's number beside the paper's: DIR/report.html (figures inline), DIR/report.md and\n"
     "DIR/results.json (docs/reproduce.md). Prints the estimated cost first. Resumable: runs\n"
     "finished in DIR/runs/ are not rerun.\n"
     "\n"
     "  --quick | --full        the quick scale (default; about an hour on one core for all\n"
     "                          five papers) or the papers' own\n"
     "  --out DIR               the report's folder, and its runs in DIR/runs/\n"
     "  --threads N             threads of each run (default: the OpenMP default)\n"
     "  --result ID             only this result (repeatable)\n"
     "  --max-cost S            list, but do not measure, results that cost more than S seconds\n"
     "                          on one core at the scale (the registry's costs)\n"
     "  --registry FILE         the registry (default: papers/stated_results.json here, else\n"
     "                          the one of the project granular was built from)\n"
     "  --dry-run               print the cost and the runs, run nothing\n"
     "\n"
     "exit status 3: the report is written and some result disagrees or failed to measure;\n"
     "75: stopped by Ctrl-C or SIGTERM (a long run checkpoints): repeat the command to continue\n"},
    {"cases",
     "usage: granular cases [show NAME | copy NAME [DIR] [--force]]\n"
     "\n"
     "The cases that ship with granular (the papers' figures and the demo; docs/cases.md):\n"
     "without an argument, their names and what each runs; show NAME prints one; copy NAME\n"
     "[DIR] writes it to DIR/NAME.json (default DIR: here) to edit. granular run NAME runs one\n"
     "as it ships.\n"
     "\n"
     "  --force                 copy over an existing DIR/NAME.json\n"},
    {"plot",
     "usage: granular plot sweep OUT [--format png|pdf|svg] [--width single|double|INCHES]\n"
     "       granular plot scan OUT COLUMN [--output FILE] [--format ...] [--width ...]\n"
     "       granular plot packing FRAME.vtp|PACKING.pvd|PACKING.lammpstrj [OUT.png]\n"
     "       granular plot paper MODEL FIG OUT... [--output FILE] [--window T0 T1]\n"
     "       granular plot thesis FIG OUT... [--output FILE]\n"
     "\n"
     "Draws a figure from a run's output folder with the figure tools that ship with granular\n"
     "(docs/figures.md): ⟨ω̄²⟩ against Γ of a sweep, a column of a scan's scan.csv, a packing's\n"
     "snapshot, the impact papers' and the thesis' figures. Runs them with $GRANULAR_PYTHON,\n"
     "else python3; they need matplotlib (pip install granular[plot]). KIND --help tells more.\n"},
    {"schema",
     "usage: granular schema [MODEL]\n"
     "\n"
     "Prints the JSON Schema (draft 2020-12) of case files, or of one model's: the keys, their\n"
     "types, bounds, choices and defaults as the loaders read them (recorded from the shipped\n"
     "cases; docs/cases.md, \"Schema\"). Save it and name it in a case as \"$schema\" for an\n"
     "editor to complete and check the case; granular validate still checks what a schema\n"
     "cannot say (relations between keys).\n"},
};

const char* const kExitCodes =
    "\n"
    "exit codes: 0 success, 2 bad input (nothing is created), 75 a run stopped by a signal with\n"
    "            a checkpoint (repeat the command with --resume to continue), 1 any other\n"
    "            failure\n";

const char* const kHelp =
    "\n"
    "commands:\n"
    "  run        validate CASE.json, then run it and write its outputs into DIR\n"
    "  validate   check CASE.json and print the quantities derived from it (t_c, e_n, dt, ...)\n"
    "             and an estimate of the run's wall time from a short calibration run\n"
    "  merge      join the complete shards of one packing ensemble run into DIR: the files a\n"
    "             single run writes (docs/outputs.md, \"Shards\")\n"
    "  reproduce  rerun the papers' stated results and write a report that sets each beside\n"
    "             the paper's number (docs/reproduce.md)\n"
    "  cases      list the shipped cases (granular run NAME runs one), show or copy one\n"
    "  schema     print the JSON Schema of case files, for editors\n"
    "  plot       draw a figure of a run's outputs (sweep, scan, packing, paper, thesis)\n"
    "\n"
    "granular COMMAND --help describes a command and its options. Case files: docs/cases.md.\n";

// The commands, as their help names them: what a mistyped command is matched against.
std::vector<std::string> command_names() {
  std::vector<std::string> names;
  for (const CommandHelp& h : kCommandHelp) names.emplace_back(h.command);
  return names;
}

// A bad command line: the message, then the usage line.
struct UsageError {
  std::string message;
};

int parse_threads(const std::string& text) {
  const std::optional<int> n = granular::cli::thread_count(text);
  if (!n)
    throw UsageError{std::string("--threads: ") + granular::cli::thread_count_expected +
                     granular::io::quoted(text)};
  return *n;
}

double parse_seconds(const std::string& text) {
  std::size_t used = 0;
  double s = -1.0;
  try {
    s = std::stod(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || text.empty() || !std::isfinite(s) || s < 0.0)
    throw UsageError{"--checkpoint-interval: expected seconds >= 0, got " +
                     granular::io::quoted(text)};
  return s;
}

// "FIRST:LAST": packing numbers within a Γ, 0 <= FIRST < LAST (the case bounds LAST).
granular::cases::PackingRange parse_packings(const std::string& text) {
  const std::size_t colon = text.find(':');
  const auto number = [&](const std::string& t) {
    std::size_t used = 0;
    long n = -1;
    try {
      n = std::stol(t, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    return used == t.size() && !t.empty() && t[0] != '-' && t[0] != '+' && n <= 1000000000
               ? static_cast<int>(n)
               : -1;
  };
  const int first = colon == std::string::npos ? -1 : number(text.substr(0, colon));
  const int last = colon == std::string::npos ? -1 : number(text.substr(colon + 1));
  if (first < 0 || last <= first)
    throw UsageError{"--packings: expected FIRST:LAST with 0 <= FIRST < LAST, got " +
                     granular::io::quoted(text)};
  return {first, last};
}

Options parse_options(const std::vector<std::string>& args) {
  Options o;
  o.command = args.at(0);
  if (o.command != "run" && o.command != "validate" && o.command != "merge")
    throw UsageError{"unknown command " + granular::io::quoted(o.command) +
                     granular::io::did_you_mean(o.command, command_names())};
  const bool run = o.command == "run";
  const bool merge = o.command == "merge";
  const bool validate = o.command == "validate";
  for (std::size_t i = 1; i < args.size(); ++i) {
    const std::string& a = args[i];
    // "--key value" or "--key=value"
    const auto take = [&](const std::string& key, std::string& value) {
      if (a == key) {
        if (i + 1 >= args.size()) throw UsageError{key + ": missing value"};
        value = args[++i];
        return true;
      }
      if (a.rfind(key + "=", 0) == 0) {
        value = a.substr(key.size() + 1);
        return true;
      }
      return false;
    };
    std::string value;
    if (!merge && take("--set", value)) {
      o.sets.push_back(value);
    } else if ((run || merge) && take("--out", value)) {
      if (value.empty()) throw UsageError{"--out: missing value"};
      o.out = value;
    } else if (run && a == "--resume") {
      o.request.resume = true;
    } else if (run && a == "--quiet") {
      o.quiet = true;
    } else if ((run || merge) && a == "--force") {
      o.request.force = true;
    } else if (run && take("--packings", value)) {
      o.request.packings = parse_packings(value);
    } else if (run && take("--checkpoint-interval", value)) {
      o.request.control.checkpoint_interval = parse_seconds(value);
    } else if ((run || validate) && take("--threads", value)) {
      o.request.threads = parse_threads(value);
    } else if ((run || validate) && take("--backend", value)) {
      if (value != "cpu" && value != "cuda") {
        throw UsageError{"--backend: expected cpu or cuda, got " + granular::io::quoted(value)};
      }
      o.request.backend = value;
    } else if (!a.empty() && a[0] == '-') {
      throw UsageError{"unknown option " + granular::io::quoted(a) + " for " + o.command +
                       granular::io::did_you_mean(a, granular::cli::command_options(o.command))};
    } else if (merge) {
      o.shards.push_back(a);
    } else if (o.case_path.empty()) {
      o.case_path = a;
    } else {
      throw UsageError{"unexpected argument " + granular::io::quoted(a) +
                       " (one case file per call)"};
    }
  }
  if (merge) {
    if (o.out.empty()) throw UsageError{"merge: missing --out DIR"};
    if (o.shards.empty()) throw UsageError{"merge: missing SHARD_DIR"};
    return o;
  }
  if (o.case_path.empty()) throw UsageError{o.command + ": missing CASE.json"};
  if (o.request.resume && o.request.force)
    throw UsageError{"--force: starts afresh, --resume continues: choose one"};
  return o;
}

int validate(const Options& o) {
  const LoadedCase lc = granular::cases::load_case(o.case_path, o.sets);
  std::cout << o.case_path << ": valid " << lc.model << " case\n";
  for (const std::string& n : lc.notes) std::cout << "note: " << n << "\n";
  // the text only: the same numbers as data are the Python module's (docs/python.md)
  granular::cases::Description description(std::cout), estimate(std::cout);
  lc.spec->describe(description);
  granular::cases::RunContext ctx;
  ctx.case_echo = lc.echo;
  ctx.request = o.request;
  lc.spec->check_run(ctx);
  lc.spec->estimate(ctx, estimate);
  return kSuccess;
}

int merge(const Options& o) {
  const fs::path out(o.out);
  const std::vector<fs::path> shards(o.shards.begin(), o.shards.end());
  granular::cases::check_folder_path(out);
  granular::cases::merge_packing_shards(out, shards, std::cout, [&](const nlohmann::json& echo) {
    granular::cases::check_run_folder(out, echo, std::nullopt, false, o.request.force);
    if (o.request.force) granular::cli::force_clear(out);
  });
  std::cout << "outputs in " << out.string() << "\n";
  return kSuccess;
}

int run(const Options& o) {
  const LoadedCase lc = granular::cases::load_case(o.case_path, o.sets);
  granular::cases::FolderRun r =
      granular::cli::folder_run(o, granular::cli::run_folder(o), o.request.packings);
  r.report = &std::cout;
  r.progress = o.quiet ? nullptr : &std::cerr;
  r.terminal = isatty(2) == 1;
  r.stopped_how = "stopped, exit " + std::to_string(kStopped) + ",";
  // a run that can stop stops within a slice with a checkpoint, so days of work survive
  if (lc.spec->stoppable()) {
    r.request.control.stop = granular::cli::stop_requested;
    granular::cli::catch_stop_signals();
  }
  const granular::cases::FolderRunEnd end = granular::cases::run_into_folder(lc, r);
  if (end.end == granular::cases::RunEnd::interrupted) {
    std::cerr << "granular: " << end.message << "\n";  // even with --quiet: how the run ended
    return kStopped;
  }
  std::cout << "outputs in " << r.out.string() << "\n";
  return kSuccess;
}

// This process's rank in an MPI job, from its launcher's environment (OpenMPI's mpirun, or a
// PMI or PMIx launcher); -1 when no launcher started it.
int launched_rank() {
  for (const char* name : {"OMPI_COMM_WORLD_RANK", "PMIX_RANK", "PMI_RANK"})
    if (const char* value = std::getenv(name)) return std::atoi(value);
  return -1;
}

}  // namespace

namespace granular::cli {

// The options a command's help names (every "--word" of its text): what a mistyped option is
// matched against.
std::vector<std::string> command_options(const std::string& command) {
  std::vector<std::string> options;
  for (const CommandHelp& h : kCommandHelp) {
    if (command != h.command) continue;
    const std::string text = h.text;
    for (std::size_t at = text.find("--"); at != std::string::npos; at = text.find("--", at)) {
      std::size_t end = at + 2;
      while (end < text.size() && (std::isalnum(static_cast<unsigned char>(text[end])) ||
                                   text[end] == '-'))
        ++end;
      if (end > at + 2) options.push_back(text.substr(at, end - at));
      at = end;
    }
  }
  return options;
}

std::optional<int> thread_count(const std::string& text) {
  std::size_t used = 0;
  long n = 0;
  try {
    n = std::stol(text, &used);
  } catch (const std::exception&) {
    used = 0;
  }
  if (used != text.size() || text.empty() || n < 1 || n > 4096) return std::nullopt;
  return static_cast<int>(n);
}

fs::path run_folder(const Options& o) {
  return o.out.empty() ? fs::path("out") / fs::path(o.case_path).stem() : fs::path(o.out);
}

granular::cases::FolderRun folder_run(
    const Options& o, const fs::path& out,
    const std::optional<granular::cases::PackingRange>& packings) {
  granular::cases::FolderRun r;
  r.out = out;
  r.request = o.request;
  r.request.packings = packings;
  r.on_kept = [out](const std::vector<std::string>& kept) { note_kept(out, kept); };
  return r;
}

void note_kept(const fs::path& out, const std::vector<std::string>& kept) {
  std::cerr << "note: --force kept " << kept.size() << " file(s) granular did not write in "
            << out.string() << " (" << granular::io::excerpt(kept.front()) << ", ...)\n";
}

void force_clear(const fs::path& out) {
  const std::vector<std::string> kept = granular::cases::clear_output_folder(out);
  if (!kept.empty()) note_kept(out, kept);
}

}  // namespace granular::cli

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  if (args.empty()) {
    std::cerr << kUsage;
    return kBadInput;
  }
  if (args[0] == "--help" || args[0] == "-h" || args[0] == "help") {
    std::cout << kUsage << kHelp << kExitCodes;
    return kSuccess;
  }
  // granular COMMAND --help (granular plot KIND --help is the figure tool's)
  const bool plot_kind =
      args[0] == "plot" && args.size() > 1 && !args[1].empty() && args[1][0] != '-';
  for (const CommandHelp& h : kCommandHelp) {
    const bool help = std::any_of(args.begin() + 1, args.end(),
                                  [](const std::string& a) { return a == "--help" || a == "-h"; });
    if (args[0] == h.command && !plot_kind && help) {
      std::cout << h.text << kExitCodes;
      return kSuccess;
    }
  }
  if (args[0] == "--version") {
    std::cout << granular::io::version_line() << "\n";
    return kSuccess;
  }
  // summary.json records what started the run (provenance.hpp)
  std::string command = "granular";
  for (const std::string& a : args) command += " " + granular::io::shell_word(a);
  granular::io::set_command_line(command);

  if (args[0] == "reproduce" && launched_rank() >= 0) {
#if GRANULAR_HAVE_MPI
    return granular::cli::reproduce_over_mpi(args);
#else
    if (launched_rank() == 0)
      std::cerr << "granular: built without MPI (GRANULAR_MPI=OFF): run reproduce without "
                   "mpirun\n";
    return kBadInput;
#endif
  }
  if (args[0] == "cases" || args[0] == "schema" || args[0] == "plot") {
    try {
      if (args[0] == "plot") return granular::cli::plot_command(args);
      return args[0] == "cases" ? granular::cli::cases_command(args)
                                : granular::cli::schema_command(args);
    } catch (const CaseError& e) {
      std::cerr << "granular: " << e.what() << "\n";
      return kBadInput;
    }
  }
  if (args[0] == "reproduce") {
    try {
      return granular::cli::reproduce(args);
    } catch (const CaseError& e) {
      std::cerr << e.what() << "\n";
      return kBadInput;
    } catch (const std::exception& e) {
      std::cerr << "granular: reproduce failed: " << granular::io::one_line(e.what()) << "\n";
      return kRunFailure;
    }
  }
  // bad input maps to 2, anything else that goes wrong to 1
  // under mpirun every rank parses the same line: rank 0 alone reports
  const int mpi_rank = launched_rank();
  Options o;
  try {
    o = parse_options(args);
  } catch (const UsageError& e) {
    if (mpi_rank <= 0)
      std::cerr << "granular: " << granular::io::one_line(e.message) << "\n" << kUsage;
    return kBadInput;
  }
#if GRANULAR_HAVE_MPI
  if (mpi_rank >= 0) return granular::cli::run_over_mpi(o);
#else
  // K copies of one run would write into one folder
  if (mpi_rank >= 0) {
    if (mpi_rank == 0)
      std::cerr << "granular: built without MPI (GRANULAR_MPI=OFF): run it without mpirun, or "
                   "split it into shards (--packings)\n";
    return kBadInput;
  }
#endif
  try {
    if (o.command == "merge") return merge(o);
    return o.command == "run" ? run(o) : validate(o);
  } catch (const CaseError& e) {
    std::cerr << e.what() << "\n";
    return kBadInput;
  } catch (const std::exception& e) {
    std::cerr << "granular: " << o.command << " failed: " << granular::io::one_line(e.what())
              << "\n";
    return kRunFailure;
  }
}
