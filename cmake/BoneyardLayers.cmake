# The layer rules of docs/architecture.md, checked on every build:
#  * links (at configure time): each library links only the layers below it;
#  * includes (a build step re-run when a source changes): each folder and each public header
#    includes only headers of its own layer or of the layers it may use.
# A public header's layer is its first folder: include/boneyard/<layer>/[FORMAT/]NAME.h.

# Layer -> the layers it may use (itself included).
set(BONEYARD_LAYER_USES_core core)
set(BONEYARD_LAYER_USES_scene core scene)
set(BONEYARD_LAYER_USES_gltf core scene gltf)
set(BONEYARD_LAYER_USES_xray core scene xray)
set(BONEYARD_LAYER_USES_mgs2 core scene mgs2)
set(BONEYARD_LAYER_USES_texture core texture)
set(BONEYARD_LAYER_USES_registry core scene gltf xray mgs2 texture registry)
set(BONEYARD_LAYER_USES_view core scene gltf xray mgs2 texture registry view)
set(BONEYARD_LAYER_USES_cli core scene gltf xray mgs2 texture registry view cli)
set(BONEYARD_LAYER_USES_python core scene xray mgs2 texture registry python)

# Format folders (src/<layer>/<format>/ with include/boneyard/<layer>/<format>/) -> the other
# format folders of their layer they may use. Every folder uses its layer's top level (what the
# layer's formats share) and itself; the top level uses any of its folders. An adapter folder
# ("scene") holds what several formats' scene adapters share.
set(BONEYARD_FOLDER_USES_xray/omf "")
set(BONEYARD_FOLDER_USES_xray/ogf xray/omf xray/scene)  # a model embeds motions; its adapter shares the skeleton's
set(BONEYARD_FOLDER_USES_xray/scene xray/omf)
set(BONEYARD_FOLDER_USES_xray/bones "")
# An .object holds bone data and embedded motions; it converts to and from .ogf models through the
# scene adapters they share.
set(BONEYARD_FOLDER_USES_xray/object xray/bones xray/envelope xray/ogf xray/omf xray/scene xray/skl)
set(BONEYARD_FOLDER_USES_xray/envelope "")  # the SDK's animation curves, shared by its motion formats
# Motion params, marks and edits as in .omf; compiled for the skeleton of an .ogf or .object (parts
# from .bones); to and from the scene through the adapters .omf uses.
set(BONEYARD_FOLDER_USES_xray/skl xray/bones xray/envelope xray/object xray/ogf xray/omf xray/scene)
set(BONEYARD_FOLDER_USES_xray/anm xray/envelope xray/omf xray/scene)  # the edit vocabulary of .omf; the scene adapters
# OGF v3: its own model; its skeleton and 0x1A motions go through the v4 model and the .omf adapter.
set(BONEYARD_FOLDER_USES_xray/ogf_v3 xray/ogf xray/omf xray/scene)
set(BONEYARD_FOLDER_USES_mgs2/kms "")
set(BONEYARD_FOLDER_USES_mgs2/evm "")
set(BONEYARD_FOLDER_USES_mgs2/mar "")  # motions play on a skeleton the registry hands over as a scene
set(BONEYARD_FOLDER_USES_mgs2/mc_index "")  # Master Collection stage indices: text, ids and paths
set(BONEYARD_FOLDER_USES_mgs2/cmdl mgs2/kms mgs2/evm mgs2/scene)  # a .cmdl is derived from its model
set(BONEYARD_FOLDER_USES_mgs2/scene mgs2/kms mgs2/evm)
set(BONEYARD_FOLDER_USES_texture/dds "")
set(BONEYARD_FOLDER_USES_texture/ctxr "")
set(BONEYARD_FOLDER_USES_texture/png "")
set(BONEYARD_FOLDER_USES_texture/tri "")

# Library target -> the boneyard libraries it may link.
set(BONEYARD_LINKS_boneyard_core "")
set(BONEYARD_LINKS_boneyard_scene boneyard_core)
set(BONEYARD_LINKS_boneyard_gltf boneyard_scene)
set(BONEYARD_LINKS_boneyard_gltf_read boneyard_scene)
set(BONEYARD_LINKS_boneyard_xray boneyard_core boneyard_scene)
set(BONEYARD_LINKS_boneyard_mgs2 boneyard_core boneyard_scene)
set(BONEYARD_LINKS_boneyard_texture boneyard_core)
set(BONEYARD_LINKS_boneyard boneyard_xray boneyard_mgs2 boneyard_texture boneyard_gltf boneyard_gltf_read)

function(boneyard_check_layers)
  get_property(libraries GLOBAL PROPERTY BONEYARD_LIBRARIES)
  foreach(lib IN LISTS libraries)
    get_target_property(items ${lib} LINK_LIBRARIES)
    foreach(item IN LISTS items)
      if(item MATCHES "^boneyard" AND NOT item STREQUAL "boneyard_warnings" AND NOT item IN_LIST BONEYARD_LINKS_${lib})
        message(FATAL_ERROR "layer rule: ${lib} links ${item}; it may link only: ${BONEYARD_LINKS_${lib}} (cmake/BoneyardLayers.cmake)")
      endif()
    endforeach()
  endforeach()

  set(args "")
  set(depends "")
  foreach(layer core scene gltf xray mgs2 texture registry view cli python)
    # Lists travel through the command line as "USES_x=a+b,USES_y=c+d,...".
    string(REPLACE ";" "+" uses "${BONEYARD_LAYER_USES_${layer}}")
    list(APPEND args "USES_${layer}=${uses}")
    file(GLOB_RECURSE files CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/src/${layer}/*.cpp ${PROJECT_SOURCE_DIR}/src/${layer}/*.h)
    list(APPEND depends ${files})
  endforeach()
  get_cmake_property(variables VARIABLES)
  list(FILTER variables INCLUDE REGEX "^BONEYARD_FOLDER_USES_")
  foreach(variable IN LISTS variables)
    string(REGEX REPLACE "^BONEYARD_FOLDER_USES_" "" folder "${variable}")
    string(REPLACE ";" "+" uses "${${variable}}")
    list(APPEND args "FOLDER_${folder}=${uses}")
  endforeach()
  file(GLOB_RECURSE headers CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/include/boneyard/*.h)
  list(APPEND depends ${headers})
  set(stamp ${CMAKE_CURRENT_BINARY_DIR}/layer_check.stamp)
  string(REPLACE ";" "," args "${args}")
  add_custom_command(OUTPUT ${stamp}
    COMMAND ${CMAKE_COMMAND} -DROOT=${PROJECT_SOURCE_DIR} "-DRULES=${args}" -DSTAMP=${stamp}
            -P ${PROJECT_SOURCE_DIR}/cmake/check_layers.cmake
    DEPENDS ${depends} ${PROJECT_SOURCE_DIR}/cmake/check_layers.cmake ${PROJECT_SOURCE_DIR}/cmake/BoneyardLayers.cmake
    COMMENT "Checking the layer rules (includes)"
    VERBATIM)
  add_custom_target(layer_check ALL DEPENDS ${stamp})
  foreach(lib IN LISTS libraries)
    add_dependencies(${lib} layer_check)
  endforeach()
endfunction()
