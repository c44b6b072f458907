// Shared helpers for the test suite.
#pragma once

#include <cstdint>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <gtest/gtest.h>

namespace boneyard::test {

inline std::filesystem::path samples_dir() { return std::filesystem::path(BONEYARD_SAMPLES_DIR); }
inline std::filesystem::path source_dir() { return std::filesystem::path(BONEYARD_SOURCE_DIR); }
inline std::filesystem::path cli_path() { return std::filesystem::path(BONEYARD_CLI); }

inline std::vector<std::uint8_t> read_file(const std::filesystem::path& p) {
  std::ifstream in(p, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

// Whether the real sample folder is there (tests that also run on examples/ add the samples then).
inline bool have_samples(const std::string& sub) { return std::filesystem::is_directory(samples_dir() / sub); }

// Skips the current test when the real sample folder is absent (it is never part of the repo).
#define BONEYARD_REQUIRE_SAMPLES(sub)                                                              \
  do {                                                                                             \
    if (!std::filesystem::is_directory(::boneyard::test::samples_dir() / (sub)))                   \
      GTEST_SKIP() << "real sample files not found at " << (::boneyard::test::samples_dir() / (sub)) \
                   << " (they live in ../shared/samples, outside the repository)";                 \
  } while (0)

}  // namespace boneyard::test
