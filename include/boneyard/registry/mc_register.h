// What an edited Master Collection model needs registered in a stage's indices, written as a mod's
// own index files (`manifest_<mod>.txt`, `bp_assets_<mod>.txt`, which MGSHDFix loads beside the
// game's) instead of editing the game's: the model's tri slot and its own manifest line, a
// bp_assets line per (tri group, texture id) naming its .ctxr, and its .cmdl line
// (docs/mgs2-mc-index.md "Registering a model").
#pragma once

#include <filesystem>
#include <string>
#include <vector>

#include "boneyard/core/diagnostics.h"
#include "boneyard/mgs2/mc_index/mc_index.h"

namespace boneyard {

struct McRegisterOptions {
  std::filesystem::path model;         // a Master Collection .kms or .evm
  std::filesystem::path cmdl;          // its .cmdl ("": _win/<name>.cmdl beside the model)
  std::vector<std::string> stages;     // the stages that load it (one or more)
  std::vector<std::string> langs{"eu", "jp"};  // the index folders (the game has both)
  std::string region = "us";           // the asset pool's region: assets/<kms|evm|tri>/<region>/
  std::string mod;                     // names the files: manifest_<mod>.txt, bp_assets_<mod>.txt
  std::filesystem::path output;        // a folder shaped like the game's: files go to <lang>/stage/<stage>/
  std::string tri;                     // the .tri (name without extension) of the model's texture group
  bool no_tri = false;                 // register no tri slot (the stage's own index has it)
  std::filesystem::path textures;      // .ctxr files whose names go into bp_assets ("": the game's textures/flatlist)
  std::filesystem::path names;         // texture names for ids no .ctxr was found for (as <name>.bmp.ctxr)
  std::filesystem::path game;          // the game's folder: lines its own indices hold already are left out
  bool dry_run = false;                // plan and check, write nothing
};

struct McRegisterFile {
  std::filesystem::path path;
  mgs2::McIndexKind kind = mgs2::McIndexKind::manifest;
  std::vector<mgs2::McIndexEntry> entries;
};

struct McRegisterResult {
  std::vector<McRegisterFile> files;  // written (or, dry run, to write); a file with no entry is not written
  Diagnostics notes;                  // lines left out or replacing the game's, texture files found
};

// Reads the model (it must be a Master Collection model that validates, with a .cmdl that agrees
// with it), finds its textures' .ctxr names, compares with the game's indices when `game` is given,
// and writes the files (all or none, read back and validated first). Usage errors (exit 2): names
// that are not plain names, a PS2 model, a tri slot whose .tri is not known. Errors (exit 1): a
// broken model or pair, textures without a .ctxr.
Result<McRegisterResult> mc_register(const McRegisterOptions& options);

}  // namespace boneyard
