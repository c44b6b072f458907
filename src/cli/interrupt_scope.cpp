// SIGINT/SIGTERM during a conversion: the handler only records the signal (async-signal-safe);
// the library stops at a safe point and removes its temporary files (boneyard/interrupt.h).
#include "interrupt_scope.h"

#include "boneyard/core/interrupt.h"

namespace boneyard::cli {

namespace {

extern "C" void record_stop_signal(int signal_number) { request_interrupt(signal_number); }

void install(int signal_number, struct sigaction& previous) {
  struct sigaction sa {};
  sa.sa_handler = record_stop_signal;
  sigemptyset(&sa.sa_mask);
  // SA_RESETHAND: a second signal gets the default action and ends the program at once, for a
  // user who does not want to wait for the safe point.
  sa.sa_flags = SA_RESTART | SA_RESETHAND;
  sigaction(signal_number, &sa, &previous);
}

}  // namespace

InterruptScope::InterruptScope() {
  install(SIGINT, previous_int_);
  install(SIGTERM, previous_term_);
}

InterruptScope::~InterruptScope() {
  sigaction(SIGINT, &previous_int_, nullptr);
  sigaction(SIGTERM, &previous_term_, nullptr);
}

int InterruptScope::exit_code() { return interrupted() ? 128 + interrupt_signal() : 0; }

}  // namespace boneyard::cli
