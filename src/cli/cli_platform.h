// The CLI's contact with the operating system: the command line, the console, Ctrl-C, opening
// a page. Everything that differs between Linux and Windows in the CLI is here; CMake compiles one implementation, cli_platform_posix.cpp or cli_platform_windows.cpp.
// (The library's own file access is core's platform layer, src/core/platform.h.)
#pragma once

#include <filesystem>
#include <string>
#include <vector>

namespace boneyard::cli {

// Makes the console take the program's UTF-8 text as it is. Windows: UTF-8 output code page
// (restored at exit), stdout and stderr in binary mode (no CR added before LF, so `dump` writes
// the same bytes as on Linux). POSIX: nothing to do.
void setup_console();

// The command line as UTF-8 (Windows: from GetCommandLineW, since main's argv holds the ANSI
// code page's "?" for Cyrillic names; POSIX: argv as it is). The first element is the program.
std::vector<std::string> utf8_arguments(int argc, char** argv);

// True when stderr is a terminal (the batch shows a progress bar there).
bool stderr_is_terminal();

// Opens `page` in the default browser (xdg-open; Windows: ShellExecuteW). Returns an error
// message, or "" when it was handed over.
std::string open_in_browser(const std::filesystem::path& page);

// While installed, an interrupt (SIGINT/SIGTERM; Windows: Ctrl-C, Ctrl-Break, closing the console)
// is only recorded (boneyard::request_interrupt) and the command stops at a safe point; a second
// one ends the program at once. Used by InterruptScope (interrupt_scope.h).
void install_interrupt_handlers();
void restore_interrupt_handlers();
// What the recorded interrupt was, for the batch's summary ("SIGINT", "Ctrl-C").
std::string interrupt_name(int signal_number);

}  // namespace boneyard::cli
