// The CLI's platform layer on Windows (cli_platform.h): the wide command line, the console's code
// page and binary mode, SetConsoleCtrlHandler, ShellExecuteW.
#include <windows.h>
#include <fcntl.h>
#include <io.h>
#include <objbase.h>
#include <shellapi.h>

#include <atomic>
#include <csignal>
#include <cstdio>
#include <cstdlib>

#include "boneyard/core/interrupt.h"
#include "boneyard/core/paths.h"
#include "cli_platform.h"

namespace boneyard::cli {

namespace fs = std::filesystem;

namespace {

UINT g_previous_output_cp = 0;

void restore_console() {
  if (g_previous_output_cp != 0) ::SetConsoleOutputCP(g_previous_output_cp);
}

}  // namespace

void setup_console() {
  // Binary mode: printf's "\n" stays one byte (text mode would write CR LF), so `dump`, `info` and
  // `validate` write the same bytes as on Linux.
  _setmode(_fileno(stdout), _O_BINARY);
  _setmode(_fileno(stderr), _O_BINARY);
  // The console shows UTF-8 (Cyrillic names) instead of the OEM code page; the console window is
  // shared with the shell, so its code page is put back when boneyard exits.
  const UINT previous = ::GetConsoleOutputCP();
  if (previous != 0 && previous != CP_UTF8 && ::SetConsoleOutputCP(CP_UTF8)) {
    g_previous_output_cp = previous;
    std::atexit(restore_console);
  }
}

std::vector<std::string> utf8_arguments(int argc, char** argv) {
  int n = 0;
  wchar_t** wide = ::CommandLineToArgvW(::GetCommandLineW(), &n);
  if (wide == nullptr) return {argv, argv + argc};
  std::vector<std::string> out;
  out.reserve(static_cast<std::size_t>(n));
  for (int i = 0; i < n; ++i) out.push_back(path_to_utf8(fs::path(wide[i])));
  ::LocalFree(wide);
  return out;
}

bool stderr_is_terminal() { return _isatty(_fileno(stderr)) != 0; }

std::string open_in_browser(const fs::path& page) {
  const fs::path target = fs::absolute(page);
  // ShellExecute may use COM (shell extensions); a single-threaded apartment as it asks for.
  const HRESULT com = ::CoInitializeEx(nullptr, COINIT_APARTMENTTHREADED | COINIT_DISABLE_OLE1DDE);
  const auto result = reinterpret_cast<INT_PTR>(
      ::ShellExecuteW(nullptr, L"open", target.c_str(), nullptr, nullptr, SW_SHOWNORMAL));
  if (SUCCEEDED(com)) ::CoUninitialize();
  if (result <= 32)
    return "--open: Windows could not open " + path_to_utf8(target) + " (ShellExecute error " +
           std::to_string(static_cast<long long>(result)) + ")";
  return {};
}

namespace {

std::atomic<int> g_events{0};

// Runs on a thread of its own that Windows starts for the event (not in a signal context).
BOOL WINAPI on_console_event(DWORD event) {
  // A second event: not handled here, so Windows' default action ends the program at once (as
  // SA_RESETHAND does on Linux).
  if (g_events.fetch_add(1) > 0) return FALSE;
  request_interrupt(event == CTRL_C_EVENT ? SIGINT : SIGTERM);
  if (event == CTRL_CLOSE_EVENT || event == CTRL_LOGOFF_EVENT || event == CTRL_SHUTDOWN_EVENT) {
    // Windows ends the process as soon as this returns (or after a few seconds): wait here while
    // the command stops at its safe point and removes its temporary files, then exits itself.
    ::Sleep(INFINITE);
  }
  return TRUE;
}

}  // namespace

void install_interrupt_handlers() {
  g_events = 0;
  ::SetConsoleCtrlHandler(on_console_event, TRUE);
}

void restore_interrupt_handlers() { ::SetConsoleCtrlHandler(on_console_event, FALSE); }

std::string interrupt_name(int signal_number) {
  return signal_number == SIGINT ? "Ctrl-C" : signal_number == SIGTERM ? "Ctrl-Break" : "an interrupt";
}

}  // namespace boneyard::cli
