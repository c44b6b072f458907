// `boneyard check-roundtrip DIR [-j N]`: every model of a game folder exported and brought back,
// with and without template, one line per model and a summary (the work is check_roundtrip in the
// registry).
#include <cstdio>

#include "boneyard/core/interrupt.h"
#include "boneyard/core/paths.h"
#include "boneyard/registry/check_roundtrip.h"
#include "cli_platform.h"
#include "commands.h"
#include "interrupt_scope.h"

namespace boneyard::cli {

namespace {

using Outcome = RoundTripItem::Outcome;

// "converted" reads better than "identical" for a model made anew that keeps what the game needs.
const char* without_word(Outcome o) { return o == Outcome::identical ? "converted" : outcome_name(o); }

bool trouble(Outcome o) { return o == Outcome::different || o == Outcome::failed; }

int run_check_roundtrip(RoundTripOptions o, bool verbose) {
  std::error_code ec;
  if (!std::filesystem::is_directory(o.input_dir, ec)) {
    std::fprintf(stderr, "%s: not a folder (check-roundtrip checks the models under a folder)\n",
                 path_to_utf8(o.input_dir).c_str());
    return kExitUsage;
  }
  o.progress = [&o, verbose](std::size_t done, std::size_t total, const RoundTripItem& item) {
    std::printf("[%zu/%zu] %s: with template %s, without template %s\n", done, total, path_to_utf8(item.model).c_str(),
                o.with_template ? outcome_name(item.with_template) : "not checked",
                o.without_template ? without_word(item.without_template) : "not checked");
    if (item.with_template == Outcome::refused) {
      std::printf("    refused by design: %s\n", item.with_detail.c_str());
    } else {
      if (trouble(item.with_template)) std::printf("    with template: %s\n", item.with_detail.c_str());
      if (trouble(item.without_template)) std::printf("    without template: %s\n", item.without_detail.c_str());
    }
    if (verbose)
      for (const auto& f : item.warnings) std::printf("    %s\n", format_finding(f, path_to_utf8(item.model)).c_str());
    std::fflush(stdout);
  };
  const auto r = check_roundtrip(o);
  std::size_t warned = 0;
  for (const auto& item : r.items) warned += item.warnings.empty() ? 0 : 1;
  std::printf("with template: %zu identical, %zu different, %zu failed; without template: %zu converted, %zu different, "
              "%zu failed; %zu refused by design (of %zu models%s)\n",
              r.identical[0], r.different[0], r.failed[0], r.identical[1], r.different[1], r.failed[1], r.refused,
              r.items.size(), warned && !verbose ? (", " + std::to_string(warned) + " with warnings: --verbose lists them").c_str()
                                                 : "");
  if (r.interrupt_signal != 0) {
    std::printf("interrupted by %s: %zu not checked\n", interrupt_name(r.interrupt_signal).c_str(), r.not_checked);
    return 128 + r.interrupt_signal;
  }
  return r.all_back() ? kExitOk : kExitFindings;
}

}  // namespace

void add_check_roundtrip_command(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand("check-roundtrip",
                                 "X-Ray: export every .ogf under a folder to glTF with its motions and bring it back, "
                                 "with itself as template (byte-identical?) and without (does it keep what the game "
                                 "needs?); nothing is written");
  auto dir = std::make_shared<std::string>();
  auto meshes = std::make_shared<std::string>();
  auto jobs = std::make_shared<unsigned>(0);
  auto only = std::make_shared<std::string>();
  auto verbose = std::make_shared<bool>(false);
  cmd->add_option("folder", *dir, "Folder of models (gamedata/meshes or any part of it)")->required();
  cmd->add_option("--meshes", *meshes, "Root of the motion refs (default: each model's nearest meshes folder)");
  cmd->add_option("-j,--jobs", *jobs, "Worker threads (default: all cores)");
  cmd->add_option("--only", *only, "Check one direction: with-template or without-template")
      ->check(CLI::IsMember({"with-template", "without-template"}));
  cmd->add_flag("-v,--verbose", *verbose, "List each model's warnings (stock limits exceeded, motion files left out)");
  cmd->callback([dir, meshes, jobs, only, verbose, &exit_code] {
    InterruptScope interruptible;  // SIGINT/SIGTERM: no new model is taken
    RoundTripOptions o;
    o.input_dir = path_from_utf8(*dir);
    if (!meshes->empty()) o.meshes = path_from_utf8(*meshes);
    o.threads = *jobs;
    o.with_template = *only != "without-template";
    o.without_template = *only != "with-template";
    exit_code = std::max(exit_code, run_check_roundtrip(std::move(o), *verbose));
  });
}

}  // namespace boneyard::cli
