// An output stream that hands every complete line to a callback: the engine's progress lines
// (RunContext::progress) become calls of a Python function, one per line.
#pragma once

#include <functional>
#include <ostream>
#include <streambuf>
#include <string>
#include <utility>

namespace granular::python {

class LineBuffer : public std::streambuf {
 public:
  explicit LineBuffer(std::function<void(const std::string&)> on_line)
      : on_line_(std::move(on_line)) {}
  // a last line without its newline still counts
  ~LineBuffer() override {
    if (!line_.empty()) on_line_(line_);
  }

 protected:
  int_type overflow(int_type ch) override {
    if (traits_type::eq_int_type(ch, traits_type::eof())) return traits_type::not_eof(ch);
    const char c = traits_type::to_char_type(ch);
    if (c == '\n') {
      on_line_(line_);
      line_.clear();
    } else if (c == '\r' && line_.empty()) {
      // the mark of a periodic progress line (cases::RunContext::progress): not its text
    } else {
      line_ += c;
    }
    return ch;
  }

 private:
  std::function<void(const std::string&)> on_line_;
  std::string line_;
};

}  // namespace granular::python
