#include "cli_harness.h"

#include <sys/wait.h>
#include <unistd.h>

#include <cstdlib>
#include <fstream>
#include <random>
#include <sstream>

#include "test_support.h"

namespace boneyard::test {

namespace fs = std::filesystem;

namespace {

fs::path new_capture_file() {
  std::string name = (fs::temp_directory_path() / "boneyard_capture_XXXXXX").string();
  const int fd = ::mkstemp(name.data());
  if (fd >= 0) ::close(fd);
  return name;
}

}  // namespace

CliRun run_shell(const std::string& command) {
  const fs::path out = new_capture_file(), err = new_capture_file();
  const std::string cmd = command + " >" + quote(out) + " 2>" + quote(err);
  const int status = std::system(cmd.c_str());
  CliRun r;
  r.code = WIFEXITED(status) ? WEXITSTATUS(status) : -1;
  r.out = slurp(out);
  r.err = slurp(err);
  std::error_code ec;
  fs::remove(out, ec);
  fs::remove(err, ec);
  return r;
}

CliRun run_cli(const std::string& args, const std::string& env) {
  return run_shell((env.empty() ? "" : env + " ") + quote(cli_path()) + " " + args);
}

std::string quote(const fs::path& p) {
  std::string q = "'";
  for (const char c : p.string()) q += c == '\'' ? std::string("'\\''") : std::string(1, c);
  return q + "'";
}

std::string slurp(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

fs::path write_bytes(const fs::path& p, const std::vector<std::uint8_t>& bytes) {
  if (p.has_parent_path()) fs::create_directories(p.parent_path());
  std::ofstream(p, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  return p;
}

TempDir::TempDir(const std::string& label) {
  std::random_device rd;
  path_ = fs::temp_directory_path() /
          ("boneyard_" + label + "_" + std::to_string(::getpid()) + "_" + std::to_string(rd()));
  fs::create_directories(path_);
}

TempDir::~TempDir() {
  std::error_code ec;
  fs::remove_all(path_, ec);
}

}  // namespace boneyard::test
