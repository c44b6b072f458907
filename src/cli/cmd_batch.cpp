// Presentation of `boneyard convert --recursive`: a progress bar on a terminal, one line per file
// otherwise, then a summary. The work itself is convert_tree (library).
#include <unistd.h>

#if defined(__GLIBC__)
#include <malloc.h>
#endif

#include <csignal>
#include <cstdio>

#include "boneyard/core/interrupt.h"
#include "boneyard/registry/batch.h"
#include "commands.h"

namespace boneyard::cli {

namespace {


}  // namespace

int run_batch_convert(BatchOptions o) {
  std::error_code ec;
  if (!std::filesystem::is_directory(o.input_dir, ec)) {
    std::fprintf(stderr, "%s: not a folder (--recursive converts a folder tree)\n", o.input_dir.c_str());
    return kExitUsage;
  }
  const bool tty = ::isatty(STDERR_FILENO) != 0;
  o.progress = [tty](std::size_t done, std::size_t total, const BatchItem& item) {
    const char* status = item.status == BatchItem::Status::failed     ? "FAILED"
                         : item.status == BatchItem::Status::warnings ? "warnings"
                                                                            : "ok";
    if (tty) {
      constexpr int kWidth = 30;
      const int filled = total ? static_cast<int>(kWidth * done / total) : kWidth;
      std::fprintf(stderr, "\r[%.*s%*s] %zu/%zu %-40.40s", filled, "##############################",
                   kWidth - filled, "", done, total, item.input.filename().string().c_str());
      if (done == total) std::fputc('\n', stderr);
    } else {
      std::fprintf(stderr, "[%zu/%zu] %s: %s\n", done, total, item.input.string().c_str(), status);
    }
  };
  const auto r = convert_tree(o);
  for (const auto& item : r.items)
    for (const auto& f : item.findings) std::fprintf(stderr, "%s\n", format_finding(f, item.input.string()).c_str());
  std::printf("%zu converted, %zu with warnings, %zu failed (of %zu)\n", r.converted, r.with_warnings, r.failed,
              r.items.size());
  if (r.interrupt_signal != 0)
    std::printf("interrupted by %s: %zu not converted (no temporary file left)\n",
                r.interrupt_signal == SIGINT ? "SIGINT" : r.interrupt_signal == SIGTERM ? "SIGTERM" : "a signal",
                r.not_converted);
  for (const auto& item : r.items)
    if (item.status == BatchItem::Status::failed && !item.findings.empty())
      std::printf("  failed: %s: %s\n", item.input.string().c_str(), item.findings.front().message.c_str());
  if (r.interrupt_signal != 0) {
    remove_temporaries();  // the workers removed theirs; this catches any the library missed
    return 128 + r.interrupt_signal;
  }
  return r.failed > 0 ? kExitFindings : kExitOk;
}

}  // namespace boneyard::cli
