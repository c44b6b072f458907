// The CLI's platform layer on POSIX systems (cli_platform.h): signals, isatty, posix_spawn of
// xdg-open.
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <csignal>
#include <cstdlib>

#include "boneyard/core/interrupt.h"
#include "boneyard/core/paths.h"
#include "cli_platform.h"

extern char** environ;

namespace boneyard::cli {

namespace fs = std::filesystem;

void setup_console() {}

std::vector<std::string> utf8_arguments(int argc, char** argv) { return {argv, argv + argc}; }

bool stderr_is_terminal() { return ::isatty(STDERR_FILENO) != 0; }

namespace {

// Full path of `name` on $PATH, or "".
std::string find_on_path(const std::string& name) {
  const char* path = std::getenv("PATH");
  std::string rest = path ? path : "";
  while (!rest.empty()) {
    const auto colon = rest.find(':');
    const std::string dir = rest.substr(0, colon);
    rest = colon == std::string::npos ? "" : rest.substr(colon + 1);
    if (dir.empty()) continue;
    const fs::path candidate = path_from_utf8(dir) / path_from_utf8(name);
    std::error_code ec;
    if (fs::is_regular_file(candidate, ec) && ::access(candidate.c_str(), X_OK) == 0) return path_to_utf8(candidate);
  }
  return {};
}

}  // namespace

std::string open_in_browser(const fs::path& page) {
  const std::string opener = find_on_path("xdg-open");
  if (opener.empty())
    return "--open: xdg-open was not found (install xdg-utils); open " + path_to_utf8(page) + " in a browser";
  const std::string target = path_to_utf8(fs::absolute(page));
  char* argv[] = {const_cast<char*>(opener.c_str()), const_cast<char*>(target.c_str()), nullptr};
  pid_t pid = 0;
  if (posix_spawn(&pid, opener.c_str(), nullptr, nullptr, argv, environ) != 0) return "--open: could not run " + opener;
  int status = 0;
  if (waitpid(pid, &status, 0) < 0 || !WIFEXITED(status) || WEXITSTATUS(status) != 0)
    return "--open: xdg-open could not open " + target;
  return {};
}

namespace {

struct sigaction previous_int {};
struct sigaction previous_term {};

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

void install_interrupt_handlers() {
  install(SIGINT, previous_int);
  install(SIGTERM, previous_term);
}

void restore_interrupt_handlers() {
  sigaction(SIGINT, &previous_int, nullptr);
  sigaction(SIGTERM, &previous_term, nullptr);
}

std::string interrupt_name(int signal_number) {
  return signal_number == SIGINT ? "SIGINT" : signal_number == SIGTERM ? "SIGTERM" : "a signal";
}

}  // namespace boneyard::cli
