// consumer IN.omf OLD NEW OUT.omf: renames one motion through the installed boneyard library.
#include <cstdio>
#include <string>
#include <variant>

#include "boneyard/core/file_io.h"
#include "boneyard/xray/omf/omf.h"
#include "boneyard/xray/omf/omf_edit.h"

int fail(const std::string& why, int exit_code) {
  std::fprintf(stderr, "consumer: %s\n", why.c_str());
  return exit_code;
}

int main(int argc, char** argv) {
  using namespace boneyard;
  if (argc != 5) return fail("usage: consumer IN.omf OLD NEW OUT.omf", 2);
  auto opened = FileData::open(argv[1]);
  if (!opened) return fail(std::string(argv[1]) + ": " + opened.error().message, 2);
  auto omf = xray::read_omf(opened.value());
  if (!omf) return fail(format_finding(omf.error(), argv[1]), 1);
  auto report = xray::rename_motion(omf.value(), argv[2], argv[3]);
  if (!report) return fail(format_finding(report.error(), argv[1]), 1);
  // Like every boneyard writer: the new bytes must read back and validate before they are saved.
  auto bytes = xray::checked_omf_bytes(xray::write_omf(omf.value()));
  if (!bytes) return fail(format_finding(bytes.error(), argv[4]), 1);
  if (auto written = write_file_atomic(argv[4], bytes.value()); !written) return fail(written.error().message, 2);
  for (const auto& change : report.value().changes) std::printf("%s\n", change.c_str());
  return 0;
}
