// `granular plot KIND ARGS...`: the figure tools (tools/*.py, docs/figures.md) run by the Python
// that has matplotlib: $GRANULAR_PYTHON (the wheel's `granular` launcher sets its own), else
// python3 on PATH. The tools stay scripts, so that `make run` and a clone use them as they are.
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <iostream>

#include "cli.hpp"
#include "granular/io/json_reader.hpp"
#include "granular/io/suggest.hpp"

namespace granular::cli {

namespace {

struct PlotTool {
  const char* kind;
  const char* script;
};
const PlotTool kPlotTools[] = {
    {"sweep", "plot_sweep.py"},       {"scan", "plot_scan.py"},
    {"packing", "render_packing.py"}, {"paper", "paper_figures.py"},
    {"thesis", "thesis_figures.py"},
};

}  // namespace

int plot_command(const std::vector<std::string>& args) {
  std::vector<std::string> kinds;
  for (const PlotTool& t : kPlotTools) kinds.emplace_back(t.kind);
  if (args.size() < 2)
    throw io::CaseError("", "plot",
                        "expected a kind of figure: sweep, scan, packing, paper or "
                        "thesis (granular plot --help)");
  const PlotTool* tool = nullptr;
  for (const PlotTool& t : kPlotTools)
    if (args[1] == t.kind) tool = &t;
  if (!tool)
    throw io::CaseError("", "plot",
                        "unknown kind of figure " + io::quoted(args[1]) +
                            io::did_you_mean(args[1], kinds) +
                            " (expected sweep, scan, packing, paper or thesis)");
  const std::filesystem::path script =
      installed_file(std::filesystem::path("tools") / tool->script);
  if (script.empty())
    throw io::CaseError(
        "", "plot",
        std::string("the figure tool ") + tool->script + " is not installed beside this granular");
  const char* python = std::getenv("GRANULAR_PYTHON");
  const std::string interpreter = python && *python ? python : "python3";
  std::vector<std::string> words = {interpreter, script.string()};
  words.insert(words.end(), args.begin() + 2, args.end());
  std::vector<char*> argv;
  for (std::string& w : words) argv.push_back(w.data());
  argv.push_back(nullptr);
  execvp(argv[0], argv.data());
  std::cerr << "granular: plot: cannot run " << interpreter << ": " << std::strerror(errno) << "\n";
  return kRunFailure;
}

}  // namespace granular::cli
