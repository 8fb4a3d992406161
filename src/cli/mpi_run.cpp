// A packing ensemble over the ranks of an MPI job (docs/mpi.md). Rank k runs the shard
// [r_k, r_{k+1}) of every Γ into its own folder DIR/.rank-k/ on its node, exactly as `granular
// run --packings` does; at the end the ranks send their shards' files to rank 0 by MPI messages
// (no shared file system needed), rank 0 merges them into DIR with the shards' merge code (the
// single run's files, bitwise) and the ranks remove their folders. A stop (a signal, or a
// failure) on any rank reaches the others by point-to-point messages they look for after every
// slice: ranks take different numbers of slices, so a collective per slice would not match.
#include "mpi_run.hpp"

#include <mpi.h>
#include <unistd.h>

#include <algorithm>
#include <chrono>
#include <fstream>
#include <functional>
#include <iostream>
#include <nlohmann/json.hpp>
#include <optional>
#include <string>
#include <thread>
#include <utility>
#include <vector>

#include "granular/cases/output_folder.hpp"
#include "granular/cases/packing_ensemble.hpp"
#include "granular/cases/progress_output.hpp"
#include "granular/cases/rank_shards.hpp"
#include "granular/cases/run_into_folder.hpp"
#include "granular/io/file.hpp"
#include "granular/io/provenance.hpp"

namespace granular::cli {

namespace {

namespace fs = std::filesystem;
using cases::incoming_folder;
using cases::rank_folder;
using cases::RankShard;
using io::CaseError;

enum Tag : int { kStop = 1, kMessage, kFileName, kFileData, kFileFailed, kFilesEnd };

// A rank's outcome; the job's is the worst of its ranks'.
enum Outcome : int { kComplete = 0, kInterrupted = 1, kFailed = 2 };

struct Ranks {
  int rank = 0;
  int size = 1;
};

// Rank 0's text on every rank.
std::string broadcast(std::string text) {
  unsigned long long n = text.size();
  MPI_Bcast(&n, 1, MPI_UNSIGNED_LONG_LONG, 0, MPI_COMM_WORLD);
  text.resize(n);
  MPI_Bcast(text.data(), static_cast<int>(n), MPI_CHAR, 0, MPI_COMM_WORLD);
  return text;
}

std::string receive_text(int from, int tag) {
  MPI_Status st;
  MPI_Probe(from, tag, MPI_COMM_WORLD, &st);
  int n = 0;
  MPI_Get_count(&st, MPI_CHAR, &n);
  std::string text(static_cast<std::size_t>(n), '\0');
  MPI_Recv(text.data(), n, MPI_CHAR, from, tag, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
  return text;
}

void send_text(const std::string& text, int to, int tag) {
  MPI_Send(text.data(), static_cast<int>(text.size()), MPI_CHAR, to, tag, MPI_COMM_WORLD);
}

// Every rank's view of whether some rank has an error (a collective): the lowest such rank's
// message on rank 0, an empty string elsewhere; nullopt on every rank when none has.
std::optional<std::string> first_error(const std::optional<std::string>& mine, const Ranks& m) {
  const int me = mine ? m.rank : m.size;
  int first = m.size;
  MPI_Allreduce(&me, &first, 1, MPI_INT, MPI_MIN, MPI_COMM_WORLD);
  if (first == m.size) return std::nullopt;
  if (m.rank != 0) {
    if (first == m.rank) send_text(*mine, 0, kMessage);
    return std::string();
  }
  return first == 0 ? *mine : receive_text(first, kMessage);
}

// Stop requests between ranks: the first time a rank wants to stop (a signal, a failure) it
// tells every other rank; every rank looks for such a message whenever its run asks whether to
// stop. finish() receives what was sent and completes the sends, the same on every rank.
class StopRelay {
 public:
  explicit StopRelay(const Ranks& m) : m_(m) {}

  // True once this rank or another wants to stop.
  bool poll(bool local) {
    if (local && !told_) {
      told_ = true;
      for (int k = 0; k < m_.size; ++k) {
        if (k == m_.rank) continue;
        sends_.emplace_back();
        MPI_Isend(&token_, 1, MPI_INT, k, kStop, MPI_COMM_WORLD, &sends_.back());
      }
    }
    if (!heard_) {
      int flag = 0;
      MPI_Iprobe(MPI_ANY_SOURCE, kStop, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE);
      heard_ = flag != 0;
    }
    return told_ || heard_;
  }

  // Waits for every rank to end its run, passing stop requests on meanwhile (a rank whose
  // shard is done still answers a signal by stopping the others), then settles the messages.
  void finish() {
    MPI_Request barrier;
    MPI_Ibarrier(MPI_COMM_WORLD, &barrier);
    for (int done = 0;;) {
      MPI_Test(&barrier, &done, MPI_STATUS_IGNORE);
      if (done) break;
      poll(stop_requested());
      std::this_thread::sleep_for(std::chrono::milliseconds(20));
    }
    const int told = told_ ? 1 : 0;
    std::vector<int> all(static_cast<std::size_t>(m_.size));
    MPI_Allgather(&told, 1, MPI_INT, all.data(), 1, MPI_INT, MPI_COMM_WORLD);
    for (int k = 0; k < m_.size; ++k) {
      int token = 0;
      if (k != m_.rank && all[k] != 0)
        MPI_Recv(&token, 1, MPI_INT, k, kStop, MPI_COMM_WORLD, MPI_STATUS_IGNORE);
    }
    MPI_Waitall(static_cast<int>(sends_.size()), sends_.data(), MPI_STATUSES_IGNORE);
  }

 private:
  Ranks m_;
  int token_ = 1;
  bool told_ = false;
  bool heard_ = false;
  std::vector<MPI_Request> sends_;
};

// Sends the run outputs of a finished shard in `dir` to rank 0: per file its name, then its
// bytes in blocks; a file that cannot be read ends the transfer with the reason.
void send_shard(const fs::path& dir) {
  std::vector<std::string> names;
  for (const fs::directory_entry& e : fs::directory_iterator(dir)) {
    const std::string name = e.path().filename().string();
    if (e.is_regular_file() && cases::is_run_output(name)) names.push_back(name);
  }
  std::sort(names.begin(), names.end());
  std::string block(std::size_t{1} << 22, '\0');
  for (const std::string& name : names) {
    send_text(name, 0, kFileName);
    std::ifstream in(dir / name, std::ios::binary);
    while (in.read(block.data(), static_cast<std::streamsize>(block.size())) || in.gcount() > 0)
      send_text(block.substr(0, static_cast<std::size_t>(in.gcount())), 0, kFileData);
    if (in.bad() || !in.eof()) {
      send_text((dir / name).string() + ": cannot read", 0, kFileFailed);
      break;
    }
  }
  send_text("", 0, kFilesEnd);
}

// Rank 0: receives rank `from`'s shard into `into`; returns why it failed, empty when it did
// not. Takes every message even after a failure, so that the sender never waits forever.
std::string receive_shard(int from, const fs::path& into) {
  std::string error;
  std::error_code ec;
  fs::create_directories(into, ec);
  if (ec) error = into.string() + ": cannot create the folder: " + ec.message();
  std::ofstream file;
  for (;;) {
    MPI_Status st;
    MPI_Probe(from, MPI_ANY_TAG, MPI_COMM_WORLD, &st);
    const std::string text = receive_text(from, st.MPI_TAG);
    if (st.MPI_TAG == kFilesEnd) break;
    if (st.MPI_TAG == kFileFailed && error.empty()) error = text;
    if (!error.empty()) continue;
    if (st.MPI_TAG == kFileName) {
      file.close();
      file.open(into / text, std::ios::binary | std::ios::trunc);
      if (!cases::is_run_output(text) || !file) error = (into / text).string() + ": cannot write";
    } else if (st.MPI_TAG == kFileData && !file.write(text.data(), text.size())) {
      error = into.string() + ": cannot write (disk full?)";
    }
  }
  file.close();
  if (error.empty() && file.fail()) error = into.string() + ": cannot write";
  return error;
}

// Removes a rank's folder once its files are merged: granular's files only, then the folder if
// nothing else is left. The outputs are complete by then, so a failure is only reported.
void remove_folder(const fs::path& dir) {
  std::error_code ec;
  if (!fs::is_directory(dir, ec)) return;
  try {
    cases::clear_output_folder(dir);
  } catch (const io::FileError& e) {
    std::cerr << "note: " << io::one_line(e.what()) << "\n";
  }
  fs::remove(dir, ec);
}

// The job's shards on every rank, or why resuming is refused (rank 0's one line; an empty
// string on the other ranks).
struct Plan {
  std::vector<RankShard> shards;
  std::optional<std::string> refused;
};

// A fresh job's shards, or on resume those its folders hold, which every rank reports to rank 0
// (cases/rank_shards.hpp decides; this carries).
Plan plan_shards(const fs::path& out, const nlohmann::json& echo, int per_gamma, bool resume,
                 const Ranks& m) {
  Plan plan;
  std::optional<std::string> error;
  std::vector<RankShard> seen;
  try {
    if (resume) seen = cases::seen_rank_shards(out, echo);
  } catch (const CaseError& e) {
    error = e.what();
  }
  if ((plan.refused = first_error(error, m))) return plan;
  std::vector<RankShard> shards;
  if (m.rank == 0) {
    std::vector<std::vector<RankShard>> all{seen};
    for (int k = 1; k < m.size; ++k)
      all.push_back(cases::rank_shards_from_json(nlohmann::json::parse(receive_text(k, kMessage))));
    try {
      shards = resume ? cases::resumed_rank_shards(all, per_gamma, m.size, out)
                      : cases::fresh_rank_shards(per_gamma, m.size);
    } catch (const CaseError& e) {
      error = e.what();
    }
  } else {
    send_text(cases::rank_shards_json(seen).dump(), 0, kMessage);
  }
  if ((plan.refused = first_error(error, m))) return plan;
  plan.shards = cases::rank_shards_from_json(
      nlohmann::json::parse(broadcast(cases::rank_shards_json(shards).dump())));
  return plan;
}

// The case on every rank: read on rank 0 alone (the ranks' nodes need not have the file) and
// sent to all; or why it cannot run (rank 0's one line, an empty string elsewhere).
struct RankCase {
  std::optional<cases::LoadedCase> lc;
  std::vector<std::string> notes;  // rank 0's
  std::optional<std::string> refused;
};

RankCase load_on_rank0(const Options& o, const Ranks& m) {
  RankCase c;
  std::optional<std::string> error;
  std::string echo_text;
  if (m.rank == 0) {
    try {
      const cases::LoadedCase lc = cases::load_case(o.case_path, o.sets);
      echo_text = lc.echo.dump();
      c.notes = lc.notes;
    } catch (const CaseError& e) {
      error = e.what();
    }
  }
  if ((c.refused = first_error(error, m))) return c;
  c.lc = cases::load_case_json(nlohmann::json::parse(broadcast(echo_text)), o.case_path);
  return c;
}

// One rank's part of the job: its shards, each run into its folder through the steps of the one
// run sequence (cases/run_into_folder.hpp), the ranks agreeing after each step.
class RankJob {
 public:
  RankJob(const Options& o, const Ranks& m, const cases::LoadedCase& lc, const fs::path& out,
          std::vector<RankShard> shards)
      : o_(o), m_(m), lc_(lc), out_(out), shards_(std::move(shards)) {
    for (const RankShard& s : shards_)
      if (s.owner == m.rank) mine_.push_back(s);
  }

  // Every rank checks its part before anything is written: rank 0 the output folder, each rank
  // its shards' folders (on resume: their checkpoints, or their finished outputs). Then --force
  // clears the output folder on rank 0 (and its rank folders), then each rank its own. The
  // first error of any rank, on every rank.
  std::optional<std::string> check_and_prepare() {
    std::optional<std::string> error;
    const bool resume = o_.request.resume;
    try {
      if (m_.rank == 0)
        cases::check_output_folder(out_, lc_.echo, std::nullopt, resume, o_.request.force);
      for (const RankShard& s : mine_) {
        finished_.push_back(
            resume && cases::holds_finished_run(rank_folder(out_, s.index), lc_.echo, s.packings));
        if (!finished_.back()) cases::check_folder(lc_, shard_run(s));
      }
    } catch (const CaseError& e) {
      error = e.what();
    }
    if (const std::optional<std::string> bad = first_error(error, m_)) return bad;
    try {
      if (m_.rank == 0 && o_.request.force) force_clear(out_);
    } catch (const io::FileError& e) {
      error = e.what();
    }
    MPI_Barrier(MPI_COMM_WORLD);
    try {
      if (m_.rank == 0) io::check_writable_folder(out_);
      for (const RankShard& s : mine_) cases::prepare_folder(shard_run(s));
    } catch (const io::FileError& e) {
      error = e.what();
    }
    return first_error(error, m_);
  }

  // Each rank its shards, one after the other; a stop anywhere stops all, each unfinished shard
  // keeping its checkpoint. The job's outcome, the worst of its ranks'.
  int run_shards(std::ostream& progress) {
    StopRelay relay(m_);
    // mpirun passes SIGUSR1 on to every rank at once; its SIGINT and SIGTERM come a second
    // late, as SIGTERM, and a second before SIGKILL (docs/mpi.md)
    catch_stop_signals({SIGINT, SIGTERM, SIGUSR1});
    int outcome = kComplete;
    for (std::size_t i = 0; i < mine_.size() && outcome == kComplete; ++i) {
      if (finished_[i]) continue;
      cases::FolderRun r = shard_run(mine_[i]);
      r.progress = &progress;
      r.request.control.stop = [&] { return relay.poll(stop_requested()); };
      try {
        if (lc_.spec->run(cases::folder_context(lc_, r)) == cases::RunEnd::interrupted)
          outcome = kInterrupted;
      } catch (const std::exception& e) {
        std::cerr << "granular: run failed on rank " << m_.rank << ": "
                  << io::one_line(cases::failed_run_message(r, e.what(), r.resume_hint)) << "\n";
        relay.poll(true);
        outcome = kFailed;
      }
    }
    relay.finish();
    int worst = outcome;
    MPI_Allreduce(&outcome, &worst, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
    return worst;
  }

  // The shards to rank 0 in the order of their folders, each owner sending its own, then the
  // merge into the output folder and the rank folders removed; false on every rank when the
  // merge failed (rank 0 says why).
  bool merge() {
    int merged = 0;
    if (m_.rank == 0) {
      merged = receive_and_merge() ? 1 : 0;
    } else {
      for (const RankShard& s : mine_) send_shard(rank_folder(out_, s.index));
    }
    MPI_Bcast(&merged, 1, MPI_INT, 0, MPI_COMM_WORLD);
    if (!merged) return false;
    for (const RankShard& s : mine_) remove_folder(rank_folder(out_, s.index));
    std::error_code ec;
    if (m_.rank != 0) fs::remove(out_, ec);  // made for the rank's folders alone: empty now
    return true;
  }

 private:
  cases::FolderRun shard_run(const RankShard& s) {
    cases::FolderRun r = folder_run(o_, rank_folder(out_, s.index), s.packings);
    r.report = &nowhere_;
    return r;
  }

  // Rank 0: every shard received (its own read in place), then merged.
  bool receive_and_merge() {
    std::vector<fs::path> shard_dirs;
    std::string failed;
    for (const RankShard& s : shards_) {
      if (s.owner == 0) {
        shard_dirs.push_back(rank_folder(out_, s.index));
        continue;
      }
      shard_dirs.push_back(incoming_folder(out_, s.index));
      const std::string e = receive_shard(s.owner, shard_dirs.back());
      if (failed.empty()) failed = e;
    }
    try {
      if (failed.empty()) cases::merge_packing_shards(out_, shard_dirs, std::cout, {});
    } catch (const std::exception& e) {
      failed = e.what();
    }
    if (!failed.empty()) {
      std::cerr << "granular: run failed: merging the ranks' shards: " << io::one_line(failed)
                << "; the shards stay in " << out_.string()
                << "/.rank-<k>/ on each rank's node (granular merge joins them)\n";
      return false;
    }
    for (const RankShard& s : shards_) remove_folder(incoming_folder(out_, s.index));
    return true;
  }

  const Options& o_;
  Ranks m_;
  const cases::LoadedCase& lc_;
  fs::path out_;
  std::vector<RankShard> shards_;  // the job's
  std::vector<RankShard> mine_;    // this rank's
  std::vector<bool> finished_;     // per shard of mine_: resumed after it finished
  std::ostream nowhere_{nullptr};
};

int run_ranks(const Options& o, const Ranks& m) {
  const auto refuse = [&](const std::string& message) {
    if (m.rank == 0) std::cerr << io::one_line(message) << "\n";
    return kBadInput;
  };
  if (o.command != "run")
    return refuse("granular: " + o.command +
                  ": only `granular run` splits over MPI ranks: " + o.command + " without mpirun");
  if (o.request.packings)
    return refuse(
        "--packings: mpirun splits the packings over the ranks itself: run a shard without "
        "mpirun");
  const RankCase c = load_on_rank0(o, m);
  if (c.refused) return refuse(*c.refused);
  const auto* ensemble = dynamic_cast<const cases::PackingEnsemble*>(c.lc->spec.get());
  if (ensemble == nullptr || ensemble->event_driven())
    return refuse("mpirun: only packing_ensemble runs by MD split over MPI ranks: run " +
                  o.case_path + " without mpirun");

  // the shards: each rank's slice, or on resume the folders of the stopped run (docs/mpi.md)
  const fs::path out = run_folder(o);
  const Plan plan =
      plan_shards(out, c.lc->echo, ensemble->ensemble().packings_per_gamma, o.request.resume, m);
  if (plan.refused) return refuse(*plan.refused);
  RankJob job(o, m, *c.lc, out, plan.shards);
  if (const std::optional<std::string> bad = job.check_and_prepare()) return refuse(*bad);

  // rank 0's progress to stderr (unless --quiet) and to run.log, as a run without mpirun
  std::optional<cases::FolderLog> log;
  if (m.rank == 0)
    log.emplace(out, o.request.resume, o.quiet ? nullptr : &std::cerr, isatty(2) == 1,
                " on " + std::to_string(m.size) + " MPI ranks");
  std::ostream nowhere(nullptr);
  std::ostream& progress = log ? log->progress() : nowhere;
  for (const std::string& n : c.notes) progress << "note: " << n << "\n";

  const int worst = job.run_shards(progress);
  if (worst == kInterrupted && log) {
    const std::string stopped =
        "granular: run interrupted; checkpoints in " + out.string() +
        "/.rank-<k>/ on each rank's node: repeat the command with --resume to continue "
        "(with another number of ranks where the ranks share the folder)";
    std::cerr << stopped << "\n";  // even with --quiet: how the run ended
    log->stopped(stopped, "stopped, exit " + std::to_string(kStopped) + ",");
  }
  if (worst == kInterrupted) return kStopped;
  if (worst != kComplete) return kRunFailure;
  if (!job.merge()) return kRunFailure;
  if (log) {
    std::cout << "outputs in " << out.string() << "\n";
    log->finish("finished, outputs in " + out.string() + ",");
  }
  return kSuccess;
}

}  // namespace

namespace {

// `body` as one rank of the MPI job that started this process, between MPI's initialization and
// its finalization. An exception that escapes it ends the job: the other ranks may wait for this
// one in a collective (mpirun reports it).
int as_mpi_rank(const char* command, const std::function<int(const Ranks&)>& body) {
  int provided = 0;
  MPI_Init_thread(nullptr, nullptr, MPI_THREAD_FUNNELED, &provided);
  Ranks m;
  MPI_Comm_rank(MPI_COMM_WORLD, &m.rank);
  MPI_Comm_size(MPI_COMM_WORLD, &m.size);
  int code = kRunFailure;
  try {
    code = body(m);
  } catch (const std::exception& e) {
    std::cerr << "granular: " << command << " failed on rank " << m.rank << ": "
              << io::one_line(e.what()) << "\n";
    MPI_Abort(MPI_COMM_WORLD, kRunFailure);
  }
  MPI_Finalize();
  return code;
}

}  // namespace

int run_over_mpi(const Options& o) {
  // failures outside the steps the ranks agree on end the job (as_mpi_rank)
  return as_mpi_rank("run", [&](const Ranks& m) { return run_ranks(o, m); });
}

int reproduce_over_mpi(const std::vector<std::string>& args) {
  return as_mpi_rank("reproduce", [&](const Ranks& m) {
    try {
      return reproduce_part(args, m.rank, m.size, [](bool stopped) {
        int mine = stopped ? 1 : 0, any = 0;
        MPI_Allreduce(&mine, &any, 1, MPI_INT, MPI_MAX, MPI_COMM_WORLD);
        return any == 0;
      });
    } catch (const CaseError& e) {
      // every rank reads the same command line and registry: each refuses it before any
      // collective
      if (m.rank == 0) std::cerr << e.what() << "\n";
      return kBadInput;
    }
  });
}

}  // namespace granular::cli
