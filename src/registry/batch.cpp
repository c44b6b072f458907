// Batch conversion: a sequential discovery pass (which OMFs do the models refer to?), then a
// pool of std::threads taking items from an atomic counter. Each item is independent: its own
// file mappings, scene and output, so a broken file fails alone.
#include "boneyard/registry/batch.h"

#include <algorithm>
#include <set>

#include "boneyard/core/interrupt.h"
#include "boneyard/core/paths.h"
#include "boneyard/core/text.h"
#include "boneyard/registry/convert_request.h"
#include "boneyard/registry/xray_files.h"
#include "boneyard/xray/ogf/ogf.h"
#include "boneyard/xray/ogf_v3/ogf_v3.h"
#include "boneyard/xray/xray_scene.h"
#include "boneyard/registry/output_plan.h"
#include "formats.h"
#include "parallel.h"

namespace boneyard {

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

// --meshes, else the model's nearest "meshes" ancestor, else the batch's input folder (a loose
// tree of models and motions is most likely rooted there).
fs::path meshes_root_for(const fs::path& model, const BatchOptions& o) {
  if (!o.settings.meshes.empty()) return o.settings.meshes;
  return xray::meshes_folder_of(fs::absolute(model)).value_or(o.input_dir);
}

// One item as a convert request; with --force its validation errors become warnings on the item,
// followed by one saying it was forced.
void convert_one(BatchItem& item, const BatchOptions& o, registry::TextureCache& textures,
                 const std::vector<ResolvedMotionRef>& refs) {
  auto data = open_or_finding(item.input, item.findings);
  if (!data) {
    item.status = BatchItem::Status::failed;
    return;
  }
  // Opened as what its extension says, not sniffed: a broken .ogf gets the .ogf reader's error.
  const std::string ext = lower_extension(path_to_utf8(item.input.filename()));
  auto doc = ext == ".ogf"      ? registry::open_ogf(std::move(data), {})
             : ext == ".object" ? registry::open_object(std::move(data), {})
             : ext == ".skls"   ? registry::open_skls(std::move(data), {})
             : ext == ".skl"    ? registry::open_skl(std::move(data), {})
             : ext == ".anm"    ? registry::open_anm(std::move(data), {})
                                : registry::open_omf(std::move(data), {});
  ConvertOutcome outcome;
  Status converted = doc ? Status() : Status(doc.error());
  if (doc) {
    ConvertOptions request;
    request.input = item.input;
    request.output = item.output;
    request.settings = o.settings;
    request.settings.meshes = meshes_root_for(item.input, o);
    request.texture_cache = &textures;
    request.motion_refs = &refs;
    request.make_folders = true;
    converted = convert_request(*doc.value(), request, outcome);
  }
  if (!converted && !outcome.blocked && interrupted()) {  // the write was abandoned, not failed: no finding for it
    item.status = BatchItem::Status::interrupted;
    return;
  }
  if (outcome.blocked) {
    item.findings.insert(item.findings.end(), outcome.blockers.begin() + 1, outcome.blockers.end());
  } else if (!outcome.blockers.empty()) {
    for (Finding f : outcome.blockers) {
      f.severity = Severity::warning;
      item.findings.push_back(std::move(f));
    }
    item.findings.push_back(Finding{Severity::warning, 0, {},
                                    "converting despite " + std::to_string(outcome.blockers.size()) +
                                        " validation error(s) (--force)",
                                    {}, {}});
  }
  for (auto& f : outcome.warnings) item.findings.push_back(std::move(f));
  if (!converted) {
    item.findings.insert(item.findings.begin(), converted.error());
    item.status = BatchItem::Status::failed;
  } else {
    item.status = item.findings.empty() ? BatchItem::Status::converted : BatchItem::Status::warnings;
  }
}

}  // namespace

Status check_batch_request(const BatchOptions& o, const OptionSet& given) {
  const OptionSet reads = options_read("tree", ".glb");
  const auto rows = convert_option_rows();
  for (std::size_t i = 0; i < rows.size(); ++i)
    if (given.test(i) && !reads.test(i) && !rows[i].reads.empty())
      return usage_error_finding(option_flag(rows[i]) + " does not apply with --recursive (options that do: " +
                                 convert_option_list(reads) + ", --jobs)");
  std::error_code ec;
  if (!fs::is_directory(o.input_dir, ec)) return usage_error_finding("not a folder (--recursive converts a folder tree)");
  return {};
}

BatchResult convert_tree(const BatchOptions& o) {
  BatchResult result;
  // The SDK's motion files (.skls, .skl, .anm) convert on their own: skeletal motions on a flat
  // armature of their bones (their model is not known), object motions as a node.
  std::vector<fs::path> ogfs, omfs, objects, sdk_motions;
  std::error_code ec;
  for (fs::recursive_directory_iterator it(o.input_dir, fs::directory_options::skip_permission_denied, ec), end;
       !ec && it != end; it.increment(ec)) {
    if (!it->is_regular_file(ec)) continue;
    const std::string ext = lower_extension(path_to_utf8(it->path().filename()));
    if (ext == ".ogf") ogfs.push_back(it->path());
    if (ext == ".omf") omfs.push_back(it->path());
    if (ext == ".object") objects.push_back(it->path());
    if (ext == ".skls" || ext == ".skl" || ext == ".anm") sdk_motions.push_back(it->path());
  }
  std::sort(objects.begin(), objects.end());
  std::sort(ogfs.begin(), ogfs.end());
  std::sort(omfs.begin(), omfs.end());
  std::sort(sdk_motions.begin(), sdk_motions.end());

  // Which OMFs are some model's motions? Reading an OGF maps it and walks its chunks: cheap. The
  // refs found here are the ones its conversion uses (looked up once: stats and, where a name's
  // case differs, folder listings).
  // Files are compared by identity (core/paths.h: device and inode, or on Windows volume serial and
  // file index): one query per path, where comparing canonical paths costs a readlink per component.
  std::set<FileIdentity> referenced;
  std::vector<std::vector<ResolvedMotionRef>> refs_of(ogfs.size());
  // An interruption stops it too: a folder of thousands of models takes seconds to look through.
  for (std::size_t i = 0; i < ogfs.size() && !interrupted(); ++i) {
    auto opened = FileData::open(ogfs[i]);
    if (!opened.ok()) continue;  // reported by its item
    const auto data = std::move(opened).value();
    std::vector<std::string> refs;
    if (xray::looks_like_ogf_v3(data->bytes())) {
      auto v3 = xray::read_ogf_v3(data);
      if (!v3) continue;
      refs = v3->motion_refs;
    } else {
      auto ogf = xray::read_ogf(data);
      if (!ogf) continue;
      refs = ogf->motion_refs;
    }
    refs_of[i] = resolve_motion_refs(meshes_root_for(ogfs[i], o), refs);
    for (const auto& ref : refs_of[i])
      for (const auto& f : ref.files)
        if (auto id = file_identity(f)) referenced.insert(*id);
  }

  // Outputs are planned before any is written: two inputs whose outputs would be one file (an
  // .omf beside an .ogf of its name, m.ogf and m.OGF, names differing only in case, which
  // case-insensitive file systems take for one) get distinct names, and the item says so.
  OutputPlan plan;
  auto add_item = [&](const fs::path& in, const char* kind) {
    BatchItem item;
    item.input = in;
    fs::path rel = in.lexically_relative(o.input_dir);
    rel.replace_extension(path_from_utf8(o.extension));
    const fs::path wanted = o.output_dir / rel;
    item.output = wanted;
    for (int k = 1; !plan.add_write(item.output); ++k) {
      // m.omf beside m.ogf becomes m_omf.glb (likewise m_object.glb, m_skls.glb, m_anm.glb), then m_2.glb, ...
      const std::string suffix = k == 1 ? std::string(kind) : std::to_string(k);
      item.output = wanted;
      item.output.replace_filename(path_from_utf8(path_to_utf8(wanted.stem()) + "_" + suffix + o.extension));
    }
    if (item.output != wanted)
      item.findings.push_back(Finding{Severity::warning, 0, {},
                                      "written as " + path_to_utf8(item.output.filename()) +
                                          ": another input's output is " + path_to_utf8(wanted.filename()),
                                      {}, {}});
    result.items.push_back(std::move(item));
  };
  for (const auto& p : ogfs) add_item(p, "ogf");
  for (const auto& p : omfs) {
    const auto id = file_identity(p);
    if (!id || !referenced.count(*id)) add_item(p, "omf");
  }
  // The SDK's source models beside the game's (an .object and the .ogf compiled from it: "_object").
  for (const auto& p : objects) add_item(p, "object");
  for (const auto& p : sdk_motions) add_item(p, lower_extension(path_to_utf8(p.filename())) == ".anm" ? "anm"
                                                : lower_extension(path_to_utf8(p.filename())) == ".skl" ? "skl"
                                                                                                         : "skls");

  const std::size_t total = result.items.size();
  std::size_t done = 0;
  registry::TextureCache textures;  // a texture shared by several models is decoded once
  // Until a worker finishes an item, it counts as not converted (what an interruption leaves).
  for (auto& item : result.items) item.status = BatchItem::Status::interrupted;
  registry::run_parallel(total, o.threads, [&](std::size_t i) {
    BatchItem& item = result.items[i];
    try {
      static const std::vector<ResolvedMotionRef> kNoRefs;
      convert_one(item, o, textures, i < refs_of.size() ? refs_of[i] : kNoRefs);
    } catch (const std::exception& e) {  // e.g. bad_alloc on a hostile file: fail this item only
      item.findings.insert(item.findings.begin(),
                           Finding{Severity::error, 0, {}, std::string("internal error: ") + e.what(), {}, {}});
      item.status = BatchItem::Status::failed;
    }
    return item.status != BatchItem::Status::interrupted;
  }, [&](std::size_t i) {
    ++done;
    if (o.progress) o.progress(done, total, result.items[i]);
  }, o.progress_as_finished ? registry::ReportOrder::completion : registry::ReportOrder::index);

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
