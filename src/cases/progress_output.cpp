#include "granular/cases/progress_output.hpp"

#include "granular/io/file.hpp"
#include "granular/io/provenance.hpp"

namespace granular::cases {

ProgressOutput::~ProgressOutput() { end_line(); }

ProgressOutput::int_type ProgressOutput::overflow(int_type ch) {
  if (traits_type::eq_int_type(ch, traits_type::eof())) return traits_type::not_eof(ch);
  const char c = traits_type::to_char_type(ch);
  if (c == '\n') {
    line(pending_);
    pending_.clear();
  } else {
    pending_ += c;
  }
  return ch;
}

void ProgressOutput::end_line() {
  if (!pending_.empty()) line(pending_);
  pending_.clear();
  if (open_ && terminal_) *terminal_ << "\n" << std::flush;
  open_ = false;
}

int ProgressOutput::sync() {
  if (terminal_) terminal_->flush();
  if (log_) log_->flush();
  return 0;
}

void ProgressOutput::line(const std::string& text) {
  const bool progress = !text.empty() && text.front() == '\r';
  const std::string body = progress ? text.substr(1) : text;
  if (log_) *log_ << body << "\n";
  if (!terminal_) return;
  if (progress && tty_) {
    // back to the line's start, the text, the rest of the old line erased
    *terminal_ << "\r" << body << "\033[K";
    open_ = true;
    return;
  }
  if (open_) *terminal_ << "\n";
  open_ = false;
  *terminal_ << body << "\n";
}

RunLog::RunLog(const std::filesystem::path& out_dir, bool resume, const std::string& where)
    : file_(out_dir / "run.log", resume ? std::ios::app : std::ios::trunc) {
  if (!file_) throw io::FileError((out_dir / "run.log").string() + ": cannot write");
  const nlohmann::json p = io::provenance();
  file_ << (resume ? "resumed " : "started ") << p["date"].get<std::string>() << " on "
        << p["host"].get<std::string>() << where << ": " << io::version_line() << "\n$ "
        << p["command_line"].get<std::string>() << "\n"
        << std::flush;
}

void RunLog::finish(const std::string& how) {
  file_ << how << " " << io::provenance()["date"].get<std::string>() << "\n" << std::flush;
}

FolderLog::FolderLog(const std::filesystem::path& out_dir, bool resume, std::ostream* shown,
                     bool is_tty, const std::string& where)
    : log_(out_dir, resume, where), buffer_(shown, is_tty, &log_.stream()), progress_(&buffer_) {}

void FolderLog::finish(const std::string& how) {
  progress_ << std::flush;
  log_.finish(how);
}

void FolderLog::stopped(const std::string& message, const std::string& how) {
  progress_ << std::flush;
  buffer_.end_line();
  log_.stream() << message << "\n";
  log_.finish(how);
}

}  // namespace granular::cases
