// Batch conversion: a sequential discovery pass (which OMFs do the models refer to?), then a
// pool of std::threads taking items from an atomic counter. Each item is independent: its own
// file mappings, scene and output, so a broken file fails alone.
#include "boneyard/registry/batch.h"

#include <algorithm>
#include <atomic>
#include <functional>
#include <mutex>
#include <set>
#include <thread>

#include "boneyard/core/interrupt.h"
#include "boneyard/core/paths.h"
#include "boneyard/xray/omf.h"
#include "boneyard/xray/ogf.h"
#include "boneyard/core/text.h"
#include "boneyard/xray/xray_scene.h"
#include "formats.h"

namespace boneyard {

using namespace xray;  // the batch is X-Ray models and motions

namespace fs = std::filesystem;

namespace {


std::shared_ptr<const FileData> open_or_finding(const fs::path& p, std::vector<Finding>& findings) {
  auto opened = FileData::open(p);
  if (!opened) {
    findings.insert(findings.begin(), io_error_finding({}, "cannot read: " + opened.error().message));
    return nullptr;
  }
  return std::move(opened).value();
}

bool iequal(std::string_view a, std::string_view b) { return lower_ascii(a) == lower_ascii(b); }

// --meshes, else the model's nearest "meshes" ancestor, else the batch's input folder (a loose
// tree of models and motions is most likely rooted there).
fs::path meshes_root_for(const fs::path& model, const BatchOptions& o) {
  if (!o.meshes_root.empty()) return o.meshes_root;
  fs::path r = default_meshes_root(model);
  return iequal(path_to_utf8(r.filename()), "meshes") ? r : o.input_dir;
}

// The validation errors that stop this item's conversion (unless --force).
std::vector<Finding> blockers_of(const OgfFile& ogf, const BatchOptions& o) {
  return ogf_conversion_blockers(ogf, o.keep_going);
}
std::vector<Finding> blockers_of(const OmfFile& omf, const BatchOptions&) {
  std::vector<Finding> errors;
  const Diagnostics found = validate_omf(omf);
  for (const auto& f : found.findings())
    if (f.severity == Severity::error) errors.push_back(f);
  return errors;
}

// Reads the input, checks it like `convert` does, and builds its scene. With --force the
// validation errors become warnings on the item, followed by one saying it was forced.
template <class File>
Result<scene::Scene> checked_scene(const Result<File>& file, const BatchOptions& o, BatchItem& item,
                                   const std::function<Result<scene::Scene>(const File&)>& to_scene) {
  if (!file) return file.error();
  const auto errors = blockers_of(file.value(), o);
  if (!errors.empty() && !o.force) {
    item.findings.insert(item.findings.end(), errors.begin() + 1, errors.end());
    return errors.front();  // the item's error; the rest follow it
  }
  for (Finding f : errors) {
    f.severity = Severity::warning;
    item.findings.push_back(std::move(f));
  }
  if (!errors.empty())
    item.findings.push_back(Finding{Severity::warning, 0, {},
                                    "converting despite " + std::to_string(errors.size()) +
                                        " validation error(s) (--force)",
                                    {}, {}});
  return to_scene(file.value());
}

void convert_one(BatchItem& item, const BatchOptions& o, registry::TextureCache& textures,
                 std::vector<xray::ResolvedMotionRef> refs) {
  Diagnostics warnings;
  std::optional<Finding> error;
  auto data = open_or_finding(item.input, item.findings);
  if (!data) {
    item.status = BatchItem::Status::failed;
    return;
  }
  XrayExportOptions x{item.input, meshes_root_for(item.input, o), {}, o.keep_going};
  x.motions = {o.float_rotations, o.motions};
  x.resolved_refs = std::move(refs);
  Result<scene::Scene> sc = Finding{};
  if (lower_extension(path_to_utf8(item.input.filename())) == ".ogf") {
    sc = checked_scene<OgfFile>(read_ogf(data), o, item,
                                [&](const OgfFile& f) { return ogf_to_scene(f, x, warnings); });
  } else {
    sc = checked_scene<OmfFile>(read_omf(data), o, item,
                                [&](const OmfFile& f) { return omf_to_scene(f.motions, x, warnings); });
  }
  if (!sc) {
    error = sc.error();
  } else {
    boneyard::ConvertOptions c;
    c.input = item.input;
    c.output = item.output;
    c.xray.textures = o.textures;
    registry::attach_textures(sc.value(), registry::xray_textures_root(c), warnings, &textures);
    std::error_code ec;
    fs::create_directories(item.output.parent_path(), ec);
    if (auto written = registry::encode_gltf_to_files(sc, warnings, c); !written) {
      if (interrupted()) {  // the write was abandoned, not failed: no finding for it
        item.status = BatchItem::Status::interrupted;
        return;
      }
      error = written.error();
    }
  }
  for (auto& f : warnings.findings())
    if (f.severity != Severity::info) item.findings.push_back(std::move(f));
  if (error) {
    item.findings.insert(item.findings.begin(), *error);
    item.status = BatchItem::Status::failed;
  } else {
    item.status = item.findings.empty() ? BatchItem::Status::converted : BatchItem::Status::warnings;
  }
}

}  // namespace

BatchResult convert_tree(const BatchOptions& o) {
  BatchResult result;
  std::vector<fs::path> ogfs, omfs;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(o.input_dir, fs::directory_options::skip_permission_denied, ec), end;
       !ec && it != end; it.increment(ec)) {
    if (!it->is_regular_file(ec)) continue;
    const std::string ext = lower_extension(path_to_utf8(it->path().filename()));
    if (ext == ".ogf") ogfs.push_back(it->path());
    if (ext == ".omf") omfs.push_back(it->path());
  }
  std::sort(ogfs.begin(), ogfs.end());
  std::sort(omfs.begin(), omfs.end());

  // Which OMFs are some model's motions? Reading an OGF maps it and walks its chunks: cheap. The
  // refs found here are the ones its conversion uses (looked up once: stats and, where a name's
  // case differs, folder listings).
  // Files are compared by identity (core/paths.h: device and inode, or on Windows volume serial and
  // file index): one query per path, where comparing canonical paths costs a readlink per component.
  std::set<FileIdentity> referenced;
  std::vector<std::vector<xray::ResolvedMotionRef>> refs_of(ogfs.size());
  for (std::size_t i = 0; i < ogfs.size(); ++i) {
    auto opened = FileData::open(ogfs[i]);
    if (!opened.ok()) continue;  // reported by its item
    auto ogf = read_ogf(std::move(opened).value());
    if (!ogf) continue;
    refs_of[i] = resolve_motion_refs(meshes_root_for(ogfs[i], o), ogf->motion_refs);
    for (const auto& ref : refs_of[i])
      for (const auto& f : ref.files)
        if (auto id = file_identity(f)) referenced.insert(*id);
  }

  // Output names as the file system compares them (file_name_key: Windows ignores case, so that
  // Wave.glb and wave.glb are one file there).
  std::set<std::string> outputs;
  auto add_item = [&](const fs::path& in, bool omf) {
    BatchItem item;
    item.input = in;
    fs::path rel = in.lexically_relative(o.input_dir);
    rel.replace_extension(path_from_utf8(o.extension));
    // An .omf beside an .ogf of the same name would get the same output name.
    if (omf && outputs.count(file_name_key(o.output_dir / rel)))
      rel.replace_filename(path_from_utf8(path_to_utf8(rel.stem()) + "_omf" + o.extension));
    item.output = o.output_dir / rel;
    outputs.insert(file_name_key(item.output));
    result.items.push_back(std::move(item));
  };
  for (const auto& p : ogfs) add_item(p, false);
  for (const auto& p : omfs) {
    const auto id = file_identity(p);
    if (!id || !referenced.count(*id)) add_item(p, true);
  }

  const std::size_t total = result.items.size();
  unsigned threads = o.threads != 0 ? o.threads : std::max(1u, std::thread::hardware_concurrency());
  threads = static_cast<unsigned>(std::min<std::size_t>(threads, std::max<std::size_t>(total, 1)));
  std::atomic<std::size_t> next{0};
  std::size_t done = 0;
  std::mutex report;
  registry::TextureCache textures;  // a texture shared by several models is decoded once
  // Until a worker finishes an item, it counts as not converted (what an interruption leaves).
  for (auto& item : result.items) item.status = BatchItem::Status::interrupted;
  auto worker = [&] {
    for (std::size_t i; !interrupted() && (i = next.fetch_add(1)) < total;) {
      BatchItem& item = result.items[i];
      try {
        convert_one(item, o, textures,
                    i < refs_of.size() ? std::move(refs_of[i]) : std::vector<xray::ResolvedMotionRef>{});
      } catch (const std::exception& e) {  // e.g. bad_alloc on a hostile file: fail this item only
        item.findings.insert(item.findings.begin(),
                             Finding{Severity::error, 0, {}, std::string("internal error: ") + e.what(), {}, {}});
        item.status = BatchItem::Status::failed;
      }
      if (item.status == BatchItem::Status::interrupted) continue;
      std::lock_guard lock(report);
      ++done;
      if (o.progress) o.progress(done, total, item);
    }
  };
  std::vector<std::thread> pool;
  for (unsigned t = 1; t < threads; ++t) pool.emplace_back(worker);
  worker();
  for (auto& t : pool) t.join();

  for (const auto& item : result.items) {
    if (item.status == BatchItem::Status::converted) ++result.converted;
    if (item.status == BatchItem::Status::warnings) ++result.with_warnings;
    if (item.status == BatchItem::Status::failed) ++result.failed;
    if (item.status == BatchItem::Status::interrupted) ++result.not_converted;
  }
  result.interrupt_signal = interrupt_signal();
  return result;
}

}  // namespace boneyard
