// SIGINT/SIGTERM during a conversion: the handler only records the signal (async-signal-safe);
// the library stops at a safe point and removes its temporary files (boneyard/interrupt.h).
#include "interrupt_scope.h"

#include "boneyard/core/interrupt.h"
#include "cli_platform.h"

namespace boneyard::cli {

InterruptScope::InterruptScope() { install_interrupt_handlers(); }

InterruptScope::~InterruptScope() { restore_interrupt_handlers(); }

int InterruptScope::exit_code() { return interrupted() ? 128 + interrupt_signal() : 0; }

}  // namespace boneyard::cli
