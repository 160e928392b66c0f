"""Build the C extension of the physics engine; the project metadata is in pyproject.toml."""

from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext

#: Strict IEEE arithmetic (no fused multiply-add, no fast-math) keeps results bit-identical.
_GCC_LIKE_FLAGS = ["-O3", "-ffp-contract=off", "-fno-fast-math", "-std=c99"]
_MSVC_FLAGS = ["/O2", "/fp:precise"]


class _BuildExt(build_ext):
    """Pick the compiler flags for the compiler at hand."""

    def build_extensions(self) -> None:
        flags = _MSVC_FLAGS if self.compiler.compiler_type == "msvc" else _GCC_LIKE_FLAGS
        for ext in self.extensions:
            ext.extra_compile_args = flags
        super().build_extensions()


setup(
    ext_modules=[
        Extension(
            "onered.physics._engine",
            sources=[
                "src/onered/physics/_engine.c",
                "src/onered/physics/kernel.c",
                "src/onered/physics/cushion.c",
            ],
            depends=["src/onered/physics/kernel.h", "src/onered/physics/cushion.h"],
        ),
    ],
    cmdclass={"build_ext": _BuildExt},
)
