#include <cstdio>
#include <exception>
#include <new>
#include <string>
#include <vector>

#include "boneyard/core/interrupt.h"
#include "boneyard/core/memory_policy.h"
#include "cli_platform.h"
#include "commands.h"

namespace {

// The last word on anything a command did not turn into a finding: one line, exit 2, never an
// abort. Readers bound their allocations by the input (docs/safety.md "Memory"), so running out
// of memory means the machine has less than the input needs.
int report_escaped_exception(const char* what) {
  std::fflush(stdout);
  std::string line = what;
  for (char& c : line)
    if (c == '\n' || c == '\r') c = ' ';
  std::fprintf(stderr, "boneyard: %s\n", line.c_str());
  return boneyard::cli::kExitUsage;
}

}  // namespace

int main(int argc, char** argv) {
  boneyard::cli::setup_console();
  boneyard::use_large_reused_heap();  // the application's allocator policy (memory_policy.h)
  CLI::App app{"boneyard: inspect, validate, dump and convert S.T.A.L.K.E.R. motions (.omf/.ogf) and\n"
               "Metal Gear Solid 2 models (.kms/.evm), and their textures (.dds/.ctxr), losslessly."};
  app.require_subcommand(1);
  // "/abs/path" is a file, never an option (CLI11 reads /x as -x on Windows unless told); set
  // before the subcommands are added, which take it from here.
  app.allow_windows_style_options(false);
  app.set_version_flag("--version", "boneyard " BONEYARD_VERSION);  // project(VERSION), CMakeLists.txt
  int exit_code = boneyard::cli::kExitOk;
  boneyard::cli::add_info_command(app, exit_code);
  boneyard::cli::add_dump_command(app, exit_code);
  boneyard::cli::add_validate_command(app, exit_code);
  boneyard::cli::add_convert_command(app, exit_code);
  boneyard::cli::add_strcode_command(app, exit_code);
  boneyard::cli::add_omf_command(app, exit_code);
  boneyard::cli::add_ogf_command(app, exit_code);
  boneyard::cli::add_object_command(app, exit_code);
  boneyard::cli::add_view_command(app, exit_code);
  boneyard::cli::add_texture_command(app, exit_code);
  boneyard::cli::add_mc_register_command(app, exit_code);
  boneyard::cli::add_check_roundtrip_command(app, exit_code);
  // UTF-8 arguments (Windows: argv would hold the ANSI code page's "?" for Cyrillic names).
  std::vector<std::string> arguments = boneyard::cli::utf8_arguments(argc, argv);
  std::vector<const char*> pointers;
  for (const auto& a : arguments) pointers.push_back(a.c_str());
  if (const auto name = boneyard::cli::file_name_taken_for_option(static_cast<int>(pointers.size()), pointers.data());
      !name.empty()) {
    const std::string command = pointers.size() > 1 && pointers[1][0] != '-' ? pointers[1] : "validate";
    std::fprintf(stderr, "boneyard: '%s' is a file name, not an option: put names that start with '-' after '--' "
                 "(boneyard %s [OPTIONS] -- %s)\n", name.c_str(), command.c_str(), name.c_str());
    return boneyard::cli::kExitUsage;
  }
  try {
    app.parse(static_cast<int>(pointers.size()), pointers.data());
  } catch (const CLI::ParseError& e) {
    const int code = app.exit(e);
    return code == 0 ? 0 : boneyard::cli::kExitUsage;
  } catch (const std::bad_alloc&) {
    return report_escaped_exception("out of memory: the input needs more memory than this machine allows");
  } catch (const std::exception& e) {
    return report_escaped_exception((std::string("internal error: ") + e.what()).c_str());
  }
  std::fflush(stdout);
  if (boneyard::interrupted()) {  // SIGINT/SIGTERM during a write (commands install the handler)
    boneyard::remove_temporaries();
    return 128 + boneyard::interrupt_signal();
  }
  return exit_code;
}
