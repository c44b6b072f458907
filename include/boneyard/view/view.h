// `boneyard view`: one self-contained HTML page that shows files in a browser, offline. The page
// carries three.js (bundled at build time from node_modules/three), a viewer script, and for
// each file its `info` summary, its findings and its glTF export as a base64 .glb.
#pragma once

#include <cstdint>
#include <filesystem>
#include <string>
#include <string_view>
#include <vector>

#include "boneyard/core/diagnostics.h"

namespace boneyard {
class Document;
}

namespace boneyard::view {

// One file shown on the page.
struct Item {
  std::string name;    // label shown in the file switcher (the path as given)
  std::string format;  // Document::format()
  std::string info;    // Document::info()
  std::vector<Finding> findings;  // Document::validate()
  std::vector<Finding> warnings;  // from the glTF export (missing motion refs, flat armature, ...)
  std::vector<std::uint8_t> glb;  // the glTF export; empty when there is none
  std::string no_model;           // why `glb` is empty
};

struct ItemOptions {
  std::filesystem::path input;        // the file (motion refs are looked up from it)
  std::filesystem::path skeleton;     // .omf: the .ogf whose skeleton plays the motions; .cmdl: its .kms/.evm
  std::filesystem::path meshes_root;  // X-Ray motion refs root; empty = nearest "meshes" folder
  std::filesystem::path textures;     // textures root (X-Ray: empty = "textures" beside "meshes"; MGS2: .ctxr folder)
};

// Fills an Item from an opened document: info, findings, and the .glb when the format converts
// to one (otherwise `no_model` says that there is no glTF export for it, or why it failed).
Item make_item(const Document& doc, std::string name, const ItemOptions& options);

// An ES module of the bundled three.js, by its path inside the npm package
// ("build/three.module.js", "examples/jsm/loaders/GLTFLoader.js", ...).
struct Module {
  std::string path;
  std::string source;
};

struct Bundle {
  std::string three_version;
  std::vector<Module> modules;
};

// Whether this build carries three.js, and if not, why (what to install, then re-run cmake).
bool bundle_available();
std::string bundle_unavailable_reason();
// The bundle compiled into this build (empty modules when unavailable).
Bundle embedded_bundle();

// The whole page: `items` (one per file, with a switcher when several), with `three` inlined.
// Nothing on the page refers to a URL outside it: scripts, the model and the data are inline.
std::string build_html(const std::vector<Item>& items, const Bundle& three, std::string_view title);

// Helpers, public for tests.
std::string base64_encode(const std::uint8_t* data, std::size_t size);
std::string html_escape(std::string_view text);

}  // namespace boneyard::view
