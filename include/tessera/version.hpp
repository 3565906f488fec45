// Tessera's version, the one place it is written. The root CMakeLists.txt reads
// TESSERA_VERSION_STRING into project(VERSION) (the `tessera` command prints it), the Python
// package's pyproject.toml reads it as the distribution's version (scikit-build-core's regex
// provider) and tessera.__version__ is this string compiled into the extension module. Keep the
// string "MAJOR.MINOR.PATCH" on one line in this form: those readers match it with a regex, and
// tests/headers checks that it spells the three numbers.
//
// Macros, so that code built against several versions can test them in #if.
#pragma once

#define TESSERA_VERSION_MAJOR 0         // incompatible API changes
#define TESSERA_VERSION_MINOR 1         // additions
#define TESSERA_VERSION_PATCH 0         // fixes
#define TESSERA_VERSION_STRING "0.1.0"  // MAJOR.MINOR.PATCH
