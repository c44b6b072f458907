// The option table of `boneyard convert`. A new option is a field in ConvertSettings and one row
// here; the code that reads the field is the rest (docs/architecture.md "Where things go"). The
// rows' order is the order of --help and of the lists in messages.
#include "boneyard/registry/convert_options.h"

#include <algorithm>
#include <array>
#include <cmath>

namespace boneyard {

namespace {

using S = ConvertSettings;

constexpr std::string_view kLayouts[] = {"ps2", "mc"};
constexpr std::string_view kNMatsReadings[] = {"spec", "sealouse"};
constexpr std::string_view kGames[] = {"soc", "cs", "cop"};
constexpr std::string_view kSmoothingStyles[] = {"soc", "cscop"};

// Metres per model unit: positive and finite (CLI11's own range message would print the largest
// double in full, 300 digits).
Status positive_scale(double value, std::string_view written) {
  if (value > 0 && std::isfinite(value)) return {};
  return usage_error_finding("must be a positive number of metres per model unit, e.g. 0.001 (found " +
                             std::string(written.substr(0, 40)) + ")");
}

const std::array kRows = {
    ConvertOptionRow{.name = "layout",
                     .reads = "kms>kms evm>evm mar>mar gltf>kms gltf>evm",
                     .field = &S::layout,
                     .help = "MGS2 only: write the PS2 or Master Collection layout",
                     .choices = kLayouts},
    ConvertOptionRow{.name = "input-layout",
                     .reads = "kms>kms kms>gltf evm>evm evm>gltf mar>mar mar>gltf",
                     .field = &S::input_layout,
                     .help = "MGS2 only: force the input's layout",
                     .choices = kLayouts,
                     .opens = true},
    ConvertOptionRow{.name = "skeleton",
                     .reads = "omf>gltf cmdl>gltf mar>gltf gltf>omf omf>skls omf>skl skls>omf skl>omf skls>gltf skl>gltf "
                              "gltf>skls gltf>skl",
                     .field = &S::skeleton,
                     .help = "X-Ray motions: the .ogf or .object whose skeleton plays them (.skls to .omf: bone order, "
                             "rest pose, ACTORTRANSFORM, an .object's parts); MGS2 .cmdl to glTF: its .kms/.evm "
                             "(default: the one beside it); MGS2 .mar to glTF: the .kms/.evm that plays it",
                     .names_input = true},
    ConvertOptionRow{.name = "mar",
                     .reads = "kms>gltf evm>gltf",
                     .field = &S::mar,
                     .help = "MGS2 .kms/.evm to glTF: the .mar whose motions the model plays (joint = unit or skeleton "
                             "entry index, 30 fps)",
                     .names_input = true},
    ConvertOptionRow{.name = "meshes",
                     .reads = "ogf>gltf tree>gltf",
                     .field = &S::meshes,
                     .help = "X-Ray: folder that motion refs are relative to (default: nearest 'meshes')"},
    ConvertOptionRow{.name = "textures",
                     .reads = "ogf>gltf object>gltf kms>gltf evm>gltf cmdl>gltf tree>gltf",
                     .field = &S::textures,
                     .help = "X-Ray .ogf/.object, MGS2 .kms/.evm to glTF: textures root (.dds, .ctxr, .tri or .png; X-Ray "
                             "default: the 'textures' folder beside the model's 'meshes' folder; MGS2: the .tri files beside "
                             "the model are searched too)"},
    ConvertOptionRow{.name = "keep-going",
                     .reads = "ogf>gltf object>gltf tree>gltf",
                     .field = &S::keep_going,
                     .help = "X-Ray .ogf/.object to glTF: leave out broken meshes (warned) instead of failing"},
    ConvertOptionRow{.name = "template",
                     .reads = "gltf>omf gltf>ogf gltf>object gltf>kms gltf>evm",
                     .field = &S::template_file,
                     .help = "glTF to .omf/.ogf/.object/.kms/.evm: the original file (parts, params, skeleton, fields, "
                             "placement; unedited bytes and meshes)",
                     .names_input = true},
    ConvertOptionRow{.name = "game",
                     .reads = "gltf>ogf gltf>object ogf>object object>ogf skls>omf skl>omf",
                     .field = &S::game,
                     .help = "To .ogf/.object: the game it is for: soc, cs or cop (vertex formats, motion-ref chunk; "
                             ".object: the smoothing style) (default: the template's, else cop); .skls to .omf: soc "
                             "writes params version 3 (no marks, 8-bit translations)",
                     .choices = kGames},
    ConvertOptionRow{.name = "motion-refs",
                     .reads = "gltf>ogf gltf>object",
                     .field = &S::motion_refs,
                     .help = "glTF to .ogf/.object: the motion refs, comma-separated (\"\" for none; default: the "
                             "template's, else the glTF extras')",
                     .value_name = "REF,REF"},
    ConvertOptionRow{.name = "smoothing",
                     .reads = "object>gltf object>ogf",
                     .field = &S::smoothing,
                     .help = "X-Ray .object input: read its smoothing groups as SoC ids or CS/CoP edge flags (default: "
                             "told from the values)",
                     .choices = kSmoothingStyles},
    ConvertOptionRow{.name = "bones",
                     .reads = "object>object object>ogf ogf>ogf ogf>object gltf>object gltf>ogf",
                     .field = &S::bones,
                     .help = "X-Ray models: bone data (.bones) for the written model's bones, by name (material, shape, "
                             "joint, mass; and the parts of an .object)",
                     .names_input = true},
    ConvertOptionRow{.name = "scale",
                     .reads = "kms>gltf evm>gltf cmdl>gltf mar>gltf gltf>kms gltf>evm",
                     .field = &S::scale,
                     .help = "MGS2 <-> glTF: metres per model unit (default: the glTF's extras, else 0.001)",
                     .check = positive_scale,
                     .value_name = "FLOAT:POSITIVE"},
    ConvertOptionRow{.name = "hq",
                     .reads = "gltf>omf skls>omf skl>omf",
                     .field = &S::hq,
                     .help = "glTF or .skls to .omf: 16-bit translation keys for every keyed bone (the SDK's "
                             "g_force16BitTransformQuant)"},
    ConvertOptionRow{.name = "parts",
                     .reads = "skls>omf skl>omf",
                     .field = &S::parts,
                     .help = ".skls to .omf: the bone parts, from a .bones, an .object, or the .omf the motions came "
                             "from (default: the --skeleton .object's, else one part with every bone)",
                     .names_input = true},
    ConvertOptionRow{.name = "camera",
                     .reads = "anm>gltf",
                     .field = &S::camera,
                     .help = ".anm to glTF: the motion moves a camera (a camera on its node; default: when the file is "
                             "under a folder named camera_effects)"},
    ConvertOptionRow{.name = "names",
                     .reads = "kms>gltf evm>gltf cmdl>gltf mar>gltf",
                     .field = &S::names,
                     .help = "MGS2 only: file of names (one per line) to show texture ids and motion names as names",
                     .opens = true},
    ConvertOptionRow{.name = "n-mats",
                     .reads = "evm>evm gltf>evm",
                     .field = &S::n_mats,
                     .help = "MGS2 to .evm: what each packet's n_mats counts: spec (matrices used, the default for "
                             "new packets) or sealouse (influences per vertex, at most 4, as SeaLouse's importer "
                             "reads it)",
                     .choices = kNMatsReadings},
    ConvertOptionRow{.name = "float-rotations",
                     .reads = "omf>gltf ogf>gltf tree>gltf",
                     .field = &S::float_rotations,
                     .help = "X-Ray to glTF: rotations as normalised floats instead of the stored 16-bit components"},
    ConvertOptionRow{.name = "motions",
                     .reads = "omf>gltf ogf>gltf object>gltf skls>gltf skl>gltf tree>gltf mar>gltf kms>gltf evm>gltf",
                     .field = &S::motions,
                     .help = "X-Ray, MGS2 .mar to glTF: export only the motions whose name matches GLOB (* and ?, "
                             "ignoring case; MGS2: the 6-digit hex strcode or the --names name; repeatable)",
                     .value_name = "GLOB"},
    ConvertOptionRow{.name = "cmdl",
                     .reads = "kms>kms evm>evm gltf>kms gltf>evm",
                     .field = &S::cmdl,
                     .help = "MGS2 Master Collection .kms/.evm output: where its .cmdl goes (default: "
                             "_win/<name>.cmdl beside the output)"},
    ConvertOptionRow{.name = "no-cmdl",
                     .reads = "kms>kms evm>evm gltf>kms gltf>evm",
                     .field = &S::no_cmdl,
                     .help = "MGS2 Master Collection .kms/.evm output: write no .cmdl",
                     .excludes = "cmdl"},
    ConvertOptionRow{.name = "force",
                     .field = &S::force,
                     .help = "Convert even when validate finds errors in the input (says so on stderr)"},
    ConvertOptionRow{.name = "allow-outside-uris",
                     .field = &S::allow_outside_uris,
                     .help = "glTF input: also read buffer URIs that are absolute or leave the .gltf's folder "
                             "(trusted files only)",
                     .opens = true},
};
static_assert(std::tuple_size_v<decltype(kRows)> <= kMaxConvertOptions);

// "gltf" for .glb and .gltf, else the extension without its dot.
std::string_view conversion_target(std::string_view ext) {
  if (ext == ".glb" || ext == ".gltf") return "gltf";
  return ext.empty() || ext.front() != '.' ? ext : ext.substr(1);
}

bool reads_conversion(const ConvertOptionRow& row, std::string_view from, std::string_view to) {
  for (const auto word : conversions_reading(row)) {
    const std::size_t arrow = word.find('>');
    if (arrow != std::string_view::npos && word.substr(0, arrow) == from && word.substr(arrow + 1) == to) return true;
  }
  return false;
}

}  // namespace

std::span<const ConvertOptionRow> convert_option_rows() { return kRows; }

const ConvertOptionRow& convert_option_row(std::size_t index) { return kRows.at(index); }

std::size_t convert_option_index(const ConvertOptionRow& row) { return static_cast<std::size_t>(&row - kRows.data()); }

const ConvertOptionRow* find_convert_option(std::string_view name) {
  for (const auto& row : kRows)
    if (row.name == name) return &row;
  return nullptr;
}

std::vector<std::string_view> conversions_reading(const ConvertOptionRow& row) {
  std::vector<std::string_view> out;
  for (std::size_t start = 0; start < row.reads.size();) {
    const std::size_t end = std::min(row.reads.find(' ', start), row.reads.size());
    if (end > start) out.push_back(row.reads.substr(start, end - start));
    start = end + 1;
  }
  return out;
}

std::string option_flag(const ConvertOptionRow& row) { return "--" + std::string(row.name); }

std::string option_keyword(const ConvertOptionRow& row) {
  std::string out(row.name);
  for (char& c : out)
    if (c == '-') c = '_';
  return out;
}

OptionSet options_read(std::string_view format, std::string_view target_extension) {
  OptionSet out;
  const std::string_view to = conversion_target(target_extension);
  for (std::size_t i = 0; i < kRows.size(); ++i)
    if (reads_conversion(kRows[i], format, to)) out.set(i);
  return out;
}

std::string convert_option_list(const OptionSet& options) {
  std::string out;
  for (std::size_t i = 0; i < kRows.size(); ++i)
    if (options.test(i)) out += (out.empty() ? "" : ", ") + option_flag(kRows[i]);
  return out.empty() ? "none" : out;
}

Status check_options_read(std::string_view format, std::string_view target_extension, const OptionSet& given) {
  const OptionSet applies = options_read(format, target_extension);
  for (std::size_t i = 0; i < kRows.size(); ++i) {
    // Request options (no `reads`) apply to every conversion.
    if (!given.test(i) || applies.test(i) || kRows[i].reads.empty()) continue;
    return usage_error_finding(option_flag(kRows[i]) + " does not apply when converting " + std::string(format) +
                               " to " + std::string(target_extension) +
                               " (options that do: " + convert_option_list(applies) + ")");
  }
  return {};
}

bool option_accepts(const ConvertOptionRow& row, std::string_view word) {
  if (row.choices.empty()) return true;
  for (const auto c : row.choices)
    if (c == word) return true;
  return false;
}

bool option_given(const OptionSet& given, std::string_view name) {
  const ConvertOptionRow* row = find_convert_option(name);
  return row != nullptr && given.test(convert_option_index(*row));
}

}  // namespace boneyard
