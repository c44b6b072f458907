// While an InterruptScope lives, SIGINT and SIGTERM (Windows: Ctrl-C, Ctrl-Break, closing the
// console) do not end the program: they are recorded (boneyard::interrupted()) so that the command
// stops at a safe point, removes its temporary files and exits 130 (SIGINT, Ctrl-C) or 143
// (SIGTERM, Ctrl-Break). A second one ends the program at once. The handlers are the platform's
// (cli_platform.h).
#pragma once

namespace boneyard::cli {

class InterruptScope {
 public:
  InterruptScope();
  ~InterruptScope();
  InterruptScope(const InterruptScope&) = delete;
  InterruptScope& operator=(const InterruptScope&) = delete;

  // 128 + the recorded signal (130 for SIGINT, 143 for SIGTERM), or 0 when none came.
  static int exit_code();
};

}  // namespace boneyard::cli
