// The corpus round trip a modder runs on a game folder (`boneyard check-roundtrip DIR`): every
// .ogf under a folder exported to glTF with the motions the engine gives it, then brought back
// with itself as template (byte-identical, or the first byte that differs) and without template (a
// new model that must keep what the game needs: skeleton and bind pose, motion refs or embedded
// motions, user data, and the triangles of every texture and shader). Nothing is written: the
// glTF and the models live in memory. docs/cli.md "check-roundtrip".
#pragma once

#include <cstddef>
#include <filesystem>
#include <functional>
#include <string>
#include <vector>

#include "boneyard/core/diagnostics.h"

namespace boneyard {

struct RoundTripItem {
  enum class Outcome {
    identical,  // with template: the original's bytes; without: a model that keeps what the game needs
    different,  // it came back, but not the same (`detail` says where)
    failed,     // an error on the way (`detail`)
    refused,    // the input has validation errors: `convert` refuses it without --force (by design)
    skipped,    // not checked (that direction was not asked for, or the export failed)
    interrupted,
  };
  std::filesystem::path model;
  Outcome with_template = Outcome::skipped;
  Outcome without_template = Outcome::skipped;
  std::string with_detail, without_detail;  // what differs or failed, for the two directions
  std::vector<Finding> warnings;  // the export's and imports' (stock limits, left-out motion files, ...)
  std::size_t motions = 0;        // animations in the glTF
  std::uint64_t glb_bytes = 0;
};

struct RoundTripOptions {
  std::filesystem::path input_dir;
  // Root of the motion refs; empty: each model's nearest "meshes" ancestor, else input_dir.
  std::filesystem::path meshes;
  unsigned threads = 0;  // 0 = all cores
  bool with_template = true;
  bool without_template = true;
  // Called once per finished model, never concurrently.
  std::function<void(std::size_t done, std::size_t total, const RoundTripItem& item)> progress;
};

struct RoundTripResult {
  std::vector<RoundTripItem> items;  // sorted by path
  // Per direction: identical, different, failed (refused models count in `refused` only).
  std::size_t identical[2] = {0, 0}, different[2] = {0, 0}, failed[2] = {0, 0};
  std::size_t refused = 0, not_checked = 0;
  int interrupt_signal = 0;
  bool all_back() const { return different[0] + different[1] + failed[0] + failed[1] == 0; }
};

// Never throws for bad files: each model's outcome is on its item. Once interrupted()
// (core/interrupt.h) no new model is taken; the rest are `interrupted`.
RoundTripResult check_roundtrip(const RoundTripOptions& options);

// The outcome's word as the CLI prints it ("identical", "different", ...).
const char* outcome_name(RoundTripItem::Outcome outcome);

}  // namespace boneyard
