// The option table of `boneyard convert`: every convert option is one row (src/registry/
// convert_options.cpp) that says its name, which conversions read it, where its value goes, the
// values it takes and its help line. The CLI's flags and their --help, Python's keyword arguments
// and their errors, the check that refuses an option the chosen conversion would ignore, and the
// options of `convert --recursive` are all made from the rows (docs/architecture.md "Options").
#pragma once

#include <bitset>
#include <cstddef>
#include <filesystem>
#include <span>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "boneyard/core/diagnostics.h"

namespace boneyard {

// The values of the convert options, one field per row. A field left as it is initialised is an
// option not given; the row's help line says what that means (a default, or a lookup).
struct ConvertSettings {
  std::string layout;                  // --layout: MGS2 output layout, "ps2" or "mc" ("": keep, or the glTF extras')
  std::string input_layout;            // --input-layout: how an MGS2 input is read ("": detected)
  std::filesystem::path skeleton;      // --skeleton: .ogf for X-Ray motions, .kms/.evm for a .cmdl or a .mar
  std::filesystem::path mar;           // --mar: MGS2 motions a .kms/.evm plays in its glTF
  std::filesystem::path meshes;        // --meshes: X-Ray motion refs root ("": the nearest "meshes" folder)
  std::filesystem::path textures;      // --textures: textures root ("": X-Ray: "textures" beside "meshes"; MGS2: none)
  bool keep_going = false;             // --keep-going: broken .ogf meshes left out (warned)
  std::filesystem::path template_file; // --template: the original of a glTF import
  std::string game;                    // --game: X-Ray game of a written .ogf/.object ("": the template's, else cop)
  std::string smoothing;               // --smoothing: how an .object's smoothing groups are read ("": told from the values)
  std::filesystem::path bones;         // --bones: bone data (.bones) for a written X-Ray model
  std::string motion_refs;             // --motion-refs: comma list of an .ogf's refs (given and "": none)
  double scale = 0;                    // --scale: metres per MGS2 unit (0: the glTF's extras, else 0.001)
  bool hq = false;                     // --hq: 16-bit translation keys in an imported .omf
  std::filesystem::path names;         // --names: texture names file (MGS2 ids shown as names)
  std::string n_mats;                  // --n-mats: "spec" or "sealouse" ("": keep / the spec's)
  bool float_rotations = false;        // --float-rotations: X-Ray rotations to glTF as floats
  std::vector<std::string> motions;    // --motions: motions to glTF (X-Ray, MGS2 .mar), by name glob (empty: all)
  std::filesystem::path cmdl;          // --cmdl: where a Master Collection model's .cmdl goes ("": _win/ beside it)
  bool no_cmdl = false;                // --no-cmdl: a Master Collection model without its .cmdl
  bool force = false;                  // --force: convert an input with validation errors
  bool allow_outside_uris = false;     // --allow-outside-uris: a .gltf's buffers outside its folder
};

// Rows, by their index in convert_option_rows(): the options given, or those a conversion reads.
inline constexpr std::size_t kMaxConvertOptions = 64;
using OptionSet = std::bitset<kMaxConvertOptions>;

// Where a row's value goes, which says what it takes: a flag, a word, a path, a number or globs.
using OptionField = std::variant<bool ConvertSettings::*, std::string ConvertSettings::*,
                                 std::filesystem::path ConvertSettings::*, double ConvertSettings::*,
                                 std::vector<std::string> ConvertSettings::*>;

struct ConvertOptionRow {
  std::string_view name;  // "n-mats": the CLI's --n-mats, Python's n_mats
  // The conversions that read it, as FROM>TO words: the input's format and the output's ("gltf"
  // stands for .glb and .gltf; "tree" is `convert --recursive`). Given to any other conversion, it
  // is a usage error naming it. Empty: every conversion reads it (--force, --allow-outside-uris).
  std::string_view reads = {};
  OptionField field;
  std::string_view help;  // the --help line (Python's docstring lists the names)
  std::span<const std::string_view> choices = {};  // the words a text option takes (empty: any)
  // A number's check: a usage error saying why `value` (as the user wrote it) is refused (its
  // message follows the option's name), or success.
  Status (*check)(double value, std::string_view written) = nullptr;
  std::string_view value_name = {};  // the value's name in --help ("GLOB"; empty: the CLI's own)
  bool opens = false;         // read when the input is opened: Python's open() takes it
  bool names_input = false;   // names a file the conversion reads: refused before anything is read
                              // when it is not a regular file
  std::string_view excludes = {};  // a row it cannot be given with
};

std::span<const ConvertOptionRow> convert_option_rows();
const ConvertOptionRow& convert_option_row(std::size_t index);
std::size_t convert_option_index(const ConvertOptionRow& row);
// The row named `name` ("n-mats"), or nullptr.
const ConvertOptionRow* find_convert_option(std::string_view name);

// The row's `reads` as words: {"evm>evm", "gltf>evm"}.
std::vector<std::string_view> conversions_reading(const ConvertOptionRow& row);
std::string option_flag(const ConvertOptionRow& row);     // "--n-mats"
std::string option_keyword(const ConvertOptionRow& row);  // "n_mats"

// The rows the conversion of a `format` input ("omf", ...; "tree" for a batch) to
// `target_extension` (".glb", ...) reads, among those some conversions do not read.
OptionSet options_read(std::string_view format, std::string_view target_extension);
// "--template, --layout, --scale": the rows in `options`, in table order, or "none".
std::string convert_option_list(const OptionSet& options);
// The first row of `given` that the conversion of `format` to `target_extension` does not read,
// as a usage error naming it and the options that do apply.
Status check_options_read(std::string_view format, std::string_view target_extension, const OptionSet& given);
// True when `word` is one of the row's choices (or the row takes any word).
bool option_accepts(const ConvertOptionRow& row, std::string_view word);
// True when `given` holds the row named `name`.
bool option_given(const OptionSet& given, std::string_view name);

}  // namespace boneyard
