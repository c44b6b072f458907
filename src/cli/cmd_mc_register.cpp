// `boneyard mc-register MODEL ...`: the Master Collection index lines an edited model needs, written
// as a mod's own manifest_<mod>.txt / bp_assets_<mod>.txt (the registry does the work).
#include <cstdio>
#include <memory>

#include "boneyard/core/paths.h"
#include "boneyard/registry/mc_register.h"
#include "commands.h"

namespace boneyard::cli {

namespace {

struct McRegisterArgs {
  std::string model, cmdl, mod, output, region = "us", tri, textures, names, game;
  std::vector<std::string> stages, langs;
  bool no_tri = false, dry_run = false;
};

int run_mc_register(const McRegisterArgs& a) {
  McRegisterOptions o;
  o.model = path_from_utf8(a.model);
  if (!a.cmdl.empty()) o.cmdl = path_from_utf8(a.cmdl);
  o.stages = a.stages;
  if (!a.langs.empty()) o.langs = a.langs;
  o.region = a.region;
  o.mod = a.mod;
  if (!a.output.empty()) o.output = path_from_utf8(a.output);
  o.tri = a.tri;
  o.no_tri = a.no_tri;
  if (!a.textures.empty()) o.textures = path_from_utf8(a.textures);
  if (!a.names.empty()) o.names = path_from_utf8(a.names);
  if (!a.game.empty()) o.game = path_from_utf8(a.game);
  o.dry_run = a.dry_run;
  auto r = mc_register(o);
  if (!r) {
    std::fprintf(stderr, "%s\n", describe_failure(r.error(), a.model).c_str());
    return exit_code_for(r.error());
  }
  for (const auto& f : r.value().notes.findings()) std::printf("%s%s\n", f.path.empty() ? "" : (f.path + ": ").c_str(), f.message.c_str());
  if (r.value().files.empty()) {
    std::printf("%s: nothing to register (the game's indices hold every line)\n", a.model.c_str());
    return kExitOk;
  }
  for (const auto& f : r.value().files) {
    std::printf("%s %s (%zu line%s)\n", a.dry_run ? "would write" : "wrote", path_to_utf8(f.path).c_str(), f.entries.size(),
                f.entries.size() == 1 ? "" : "s");
    for (const auto& e : f.entries) std::printf("  %s\n", e.text().c_str());
  }
  return kExitOk;
}

}  // namespace

void add_mc_register_command(CLI::App& app, int& exit_code) {
  auto* cmd = app.add_subcommand(
      "mc-register",
      "MGS2 Master Collection: write the index lines an edited model needs (its tri slot and manifest line, a bp_assets "
      "line per texture and its .cmdl) as a mod's own manifest_<mod>.txt and bp_assets_<mod>.txt, which MGSHDFix loads "
      "beside the game's");
  auto a = std::make_shared<McRegisterArgs>();
  cmd->add_option("model", a->model, "The Master Collection .kms or .evm (with its _win/<name>.cmdl)")->required();
  cmd->add_option("--stage", a->stages, "A stage that loads the model (repeatable; default with --game: every stage that lists it)")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  cmd->add_option("--mod", a->mod, "The mod's name: the files are manifest_<mod>.txt and bp_assets_<mod>.txt")->required();
  cmd->add_option("-o,--output", a->output, "The folder the files go into, shaped like the game's: <lang>/stage/<stage>/");
  cmd->add_option("--region", a->region, "The asset pool's region, assets/<kms|evm|tri>/<region>/ (default us)");
  cmd->add_option("--lang", a->langs, "An index folder of the game, eu or jp (repeatable; default both)")
      ->expected(1)
      ->multi_option_policy(CLI::MultiOptionPolicy::TakeAll);
  cmd->add_option("--tri", a->tri, "The .tri (name without extension) that holds the model's textures (default: the model's name when its "
                                    "texture group is that name's StrCode24)");
  cmd->add_flag("--no-tri", a->no_tri, "Register no tri slot (the stage's own manifest has it)")->excludes("--tri");
  cmd->add_option("--textures", a->textures, "Where the model's .ctxr files are; their names go into bp_assets (default: the game's "
                                             "textures/flatlist with --game)");
  cmd->add_option("--names", a->names, "Texture names for ids no .ctxr was found for (one per line; written as <name>.bmp.ctxr)");
  cmd->add_option("--game", a->game, "The game's folder: lines its own manifest.txt and bp_assets.txt hold are left out, and those "
                                     "that replace one are said");
  cmd->add_option("--cmdl", a->cmdl, "The model's .cmdl (default: _win/<name>.cmdl beside it)");
  cmd->add_flag("--dry-run", a->dry_run, "Print the lines, write nothing");
  cmd->callback([a, &exit_code] { exit_code = run_mc_register(*a); });
}

}  // namespace boneyard::cli
