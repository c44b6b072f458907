// The CLI's commands: each parses nothing itself, it receives parsed options and calls the library.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include <CLI/CLI.hpp>

#include "boneyard/core/diagnostics.h"
#include "boneyard/core/file_io.h"
#include "boneyard/registry/batch.h"
#include "boneyard/registry/document.h"
#include "boneyard/xray/omf/omf_edit.h"

namespace boneyard::cli {

// Exit codes shared by every command.
inline constexpr int kExitOk = 0;
inline constexpr int kExitFindings = 1;  // invalid input, or validation findings
inline constexpr int kExitUsage = 2;     // usage or I/O problems

struct CommonOptions {
  std::string layout;      // MGS2 layout override: ps2 | mc
  std::string names_file;  // MGS2 StrCode24 names, one per line
  bool allow_outside_uris = false;  // glTF: read buffer URIs outside the .gltf's folder
};

// --allow-outside-uris, on every command that can read a .gltf.
void add_allow_outside_uris_option(CLI::App& cmd, bool& allow);

// Registers a subcommand on `app`; the callback stores its exit code in `exit_code`.
// The first argument before "--" that looks like a file name but would be parsed as an option
// ("-h.omf" would print help; "-walk.omf" would be flags), or "" when there is none.
std::string file_name_taken_for_option(int argc, const char* const* argv);

// An edit's changes on stdout (each after `indent`) and its warnings on stderr (`omf`, `ogf`).
void print_edit_report(const xray::EditReport& report, const char* indent = "  ");

void add_info_command(CLI::App& app, int& exit_code);
void add_dump_command(CLI::App& app, int& exit_code);
void add_validate_command(CLI::App& app, int& exit_code);
void add_convert_command(CLI::App& app, int& exit_code);  // cmd_convert.cpp
// `convert --recursive IN_DIR -o OUT_DIR` (cmd_batch.cpp); returns the exit code.
// `options.progress` is set here (a bar on a terminal, else a line per file).
int run_batch_convert(BatchOptions options);
void add_strcode_command(CLI::App& app, int& exit_code);  // cmd_strcode.cpp
void add_omf_command(CLI::App& app, int& exit_code);      // cmd_omf.cpp: `boneyard omf ...` editing
void add_ogf_command(CLI::App& app, int& exit_code);      // cmd_ogf.cpp: `boneyard ogf ...` editing
void add_object_command(CLI::App& app, int& exit_code);   // cmd_object.cpp: `boneyard object ...` editing
void add_view_command(CLI::App& app, int& exit_code);     // cmd_view.cpp: HTML preview
void add_texture_command(CLI::App& app, int& exit_code);  // cmd_texture.cpp: textures to PNG and back
void add_mc_register_command(CLI::App& app, int& exit_code);  // cmd_mc_register.cpp: MGS2 Master Collection index lines
void add_check_roundtrip_command(CLI::App& app, int& exit_code);  // cmd_check_roundtrip.cpp

// Opens and parses one file as its content says (--layout, --names, --allow-outside-uris from
// `common`); on failure prints one line to stderr and raises `exit_code`.
std::unique_ptr<Document> open_or_report(const std::string& path, const CommonOptions& common, int& exit_code);

// Opens a file; on failure (missing, unreadable, not a regular file) prints one line and raises
// `exit_code` to 2.
std::shared_ptr<const FileData> open_file_or_report(const std::string& path, int& exit_code);

// The exit code a Finding that stops a command stands for: 2 when a file could not be read, else 1.
int exit_code_for(const Finding& f);

// A file named by an option (--skeleton of `view`): true when it is a regular file; otherwise
// prints "OPTION PATH: why" and sets `exit_code` to 2, before any input is parsed.
bool option_file_ok(const char* option, const std::string& path, int& exit_code);

}  // namespace boneyard::cli
