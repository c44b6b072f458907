// Running programs from tests: build/boneyard (or any shell command) with stdout, stderr and the
// exit code captured apart, and temporary folders that remove themselves.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace boneyard::test {

struct CliRun {
  int code = -1;  // the exit code, or -1 when the program did not exit normally (a signal)
  std::string out, err;
};

// Runs `command` through /bin/sh. The captures are files of their own in the temporary folder,
// never inside a folder the command reads, so that `--recursive` or a listing does not see them.
CliRun run_shell(const std::string& command);

// Runs build/boneyard with `args` (already quoted where needed). `env` goes before the program,
// e.g. "PATH=/nowhere".
CliRun run_cli(const std::string& args, const std::string& env = "");

// `p` single-quoted for the shell.
std::string quote(const std::filesystem::path& p);

// The whole file as text (empty when it cannot be read).
std::string slurp(const std::filesystem::path& p);

// Writes `bytes` to `p`, creating its folders. Returns `p`.
std::filesystem::path write_bytes(const std::filesystem::path& p, const std::vector<std::uint8_t>& bytes);

// A new folder under the system's temporary folder, removed with its contents on destruction.
class TempDir {
 public:
  explicit TempDir(const std::string& label = "test");
  ~TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  const std::filesystem::path& path() const { return path_; }

 private:
  std::filesystem::path path_;
};

// Fixture for end-to-end tests: a fresh folder per test (dir_) to write inputs into.
class CliTest : public ::testing::Test {
 protected:
  std::filesystem::path write(const std::string& name, const std::vector<std::uint8_t>& bytes) {
    return write_bytes(dir_ / name, bytes);
  }

  TempDir tmp_{"cli"};
  const std::filesystem::path dir_ = tmp_.path();
};

}  // namespace boneyard::test
