// SIGINT and SIGTERM (and under mpirun SIGUSR1) during an ensemble run: the first asks the run to
// stop, which it does within a slice (about half a second) with a checkpoint; a second is answered
// with a reminder, since a scheduler or an impatient user often repeats it while the checkpoint is
// written; a third ends the process at once, without one.
#include <signal.h>
#include <unistd.h>

#include <csignal>

#include "cli.hpp"

namespace granular::cli {

namespace {

volatile std::sig_atomic_t g_stop = 0;
volatile std::sig_atomic_t g_signals = 0;

// write(2) only: nothing else is safe in a signal handler
void say(const char* text) {
  std::size_t n = 0;
  while (text[n] != '\0') ++n;
  const ssize_t ignored = ::write(STDERR_FILENO, text, n);
  static_cast<void>(ignored);
}

extern "C" void request_stop(int signal) {
  const int count = g_signals + 1;
  g_signals = count;
  if (count == 1) {
    g_stop = 1;
    say("\ngranular: stopping: writing a checkpoint (interrupt twice more to quit without one)\n");
  } else if (count == 2) {
    say("\ngranular: still writing the checkpoint; one more interrupt quits without it\n");
  } else {
    std::signal(signal, SIG_DFL);
    std::raise(signal);
  }
}

}  // namespace

void catch_stop_signals(std::initializer_list<int> signals) {
  struct sigaction action {};
  action.sa_handler = request_stop;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  for (const int s : signals) sigaction(s, &action, nullptr);
}

bool stop_requested() { return g_stop != 0; }

}  // namespace granular::cli
