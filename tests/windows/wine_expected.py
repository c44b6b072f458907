"""What the wine tier expects to differ between the Linux and the Windows build (facts of the
platform or of wine, not of boneyard), and what it cannot test under wine."""

# Cases whose difference is a fact of the platform, not of boneyard: name -> why. They still run;
# the difference is reported as expected.
_WINE_LINKS = ("wine shows a Linux symlink as the file it points to (no reparse point), so the Windows "
               "build cannot see the link; on NTFS the platform layer reads a link as a reparse point (not testable "
               "under wine)")
EXPECTED = {
    "hostile:gltf_uri_symlink_outside": _WINE_LINKS,
    "hostile:gltf_uri_symlink_outside_relative": _WINE_LINKS,
    "hostile:gltf_uri_symlinked_folder_outside": _WINE_LINKS,
    "hostile:gltf_uri_symlink_loop": _WINE_LINKS,
    "hostile:omf_in_place_through_symlink": _WINE_LINKS + " (the edit replaces the file wine shows)",
    "hostile:omf_in_place_keeps_mode": "Windows files have no POSIX permission bits (wine shows 644); the "
                                       "attributes are kept instead (docs/windows.md)",
    "hostile:motion_ref_fifo": "Windows has no FIFOs in folders: wine does not show the Linux FIFO, so the "
                               "motion file is not found (a warning) instead of refused",
    "hostile:cmdl_mc_output_failing_leaves_no_win_folder": "Windows' reason for replacing a folder is "
                                                           "'Permission denied' (ERROR_ACCESS_DENIED); the "
                                                           "outcome (exit 2, nothing left) is the same",
    "hostile:gltf_write_failure_removes_bin": "Windows' reason for replacing a folder is 'Permission denied' "
                                              "(ERROR_ACCESS_DENIED); the outcome (exit 2, no .bin left) is the same",
    "hostile:output_is_a_fifo": "Windows has no FIFOs in folders: wine shows the Linux FIFO as something it "
                                "cannot replace, so the Windows build fails at the rename instead of refusing "
                                "up front (exit 2 and nothing written on both)",
    "hostile:tri_png_output_is_a_fifo": "Windows has no FIFOs in folders: wine shows the Linux FIFO as something "
                                        "it cannot replace, so that PNG fails at the rename instead of the request "
                                        "being refused up front, and the .tri's other texture is written as any "
                                        "texture is when another fails (exit 2 on both)",
    "hostile:tri_folder_png_output_is_a_fifo": "as hostile:tri_png_output_is_a_fifo, for a folder of .tri files "
                                               "(exit 2 on both)",
    "hostile:output_is_dev_null_through_a_link": _WINE_LINKS + "; /dev/null is no device on Windows (exit 2 and "
                                                 "nothing written on both)",
    "hostile:cmdl_names_a_device": "/dev/null names no device on Windows (NUL would): wine refuses the rename "
                                   "instead (exit 2 and nothing written on both)",
    "hostile:merge_help_two_or_more": "the usage line names the program as it was started (Z:/.../boneyard.exe)",
}


def skip_reasons():
    return [
        "Ctrl-C: wine cannot deliver a console control event to a program whose output is a pipe; the "
        "SIGINT/SIGTERM cases of the hostile suite (interrupt_sigint_recursive, interrupt_sigterm_recursive) run on "
        "Linux only, and SetConsoleCtrlHandler is exercised by hand on Windows (docs/windows.md)",
        "view --open: opening a page needs a desktop browser (ShellExecuteW); not run",
        "FIFOs, devices and symlinks of the hostile suite: wine shows the Linux special files as Windows sees "
        "them (see the hostile: cases below for what each does)",
    ]
