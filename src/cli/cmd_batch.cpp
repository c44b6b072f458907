// Presentation of `boneyard convert --recursive`: a progress bar on a terminal, one line per file
// otherwise, then a summary. The work itself is convert_tree (library).
#include <cstdio>

#include "boneyard/core/interrupt.h"
#include "boneyard/core/paths.h"
#include "boneyard/registry/batch.h"
#include "cli_platform.h"
#include "commands.h"

namespace boneyard::cli {

int run_batch_convert(BatchOptions o) {
  const bool tty = stderr_is_terminal();
  o.progress = [tty](std::size_t done, std::size_t total, const BatchItem& item) {
    const char* status = item.status == BatchItem::Status::failed     ? "FAILED"
                         : item.status == BatchItem::Status::warnings ? "warnings"
                                                                            : "ok";
    if (tty) {
      constexpr int kWidth = 30;
      const int filled = total ? static_cast<int>(kWidth * done / total) : kWidth;
      std::fprintf(stderr, "\r[%.*s%*s] %zu/%zu %-40.40s", filled, "##############################",
                   kWidth - filled, "", done, total, path_to_utf8(item.input.filename()).c_str());
      if (done == total) std::fputc('\n', stderr);
    } else {
      std::fprintf(stderr, "[%zu/%zu] %s: %s\n", done, total, path_to_utf8(item.input).c_str(), status);
    }
  };
  const auto r = convert_tree(o);
  for (const auto& item : r.items)
    for (const auto& f : item.findings) std::fprintf(stderr, "%s\n", format_finding(f, path_to_utf8(item.input)).c_str());
  std::printf("%zu converted, %zu with warnings, %zu failed (of %zu)\n", r.converted, r.with_warnings, r.failed,
              r.items.size());
  if (r.interrupt_signal != 0)
    std::printf("interrupted by %s: %zu not converted (no temporary file left)\n",
                interrupt_name(r.interrupt_signal).c_str(), r.not_converted);
  for (const auto& item : r.items)
    if (item.status == BatchItem::Status::failed && !item.findings.empty())
      std::printf("  failed: %s: %s\n", path_to_utf8(item.input).c_str(), item.findings.front().message.c_str());
  if (r.interrupt_signal != 0) {
    remove_temporaries();  // the workers removed theirs; this catches any the library missed
    return 128 + r.interrupt_signal;
  }
  return r.failed > 0 ? kExitFindings : kExitOk;
}

}  // namespace boneyard::cli
