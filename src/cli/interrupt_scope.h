// While an InterruptScope lives, SIGINT and SIGTERM do not end the program: they are recorded
// (boneyard::interrupted()) so that the command stops at a safe point, removes its temporary
// files and exits 130 (SIGINT) or 143 (SIGTERM). A second signal ends the program at once.
#pragma once

#include <csignal>

namespace boneyard::cli {

class InterruptScope {
 public:
  InterruptScope();
  ~InterruptScope();
  InterruptScope(const InterruptScope&) = delete;
  InterruptScope& operator=(const InterruptScope&) = delete;

  // 128 + the recorded signal (130 for SIGINT, 143 for SIGTERM), or 0 when none came.
  static int exit_code();

 private:
  struct sigaction previous_int_ {};
  struct sigaction previous_term_ {};
};

}  // namespace boneyard::cli
