"""The build step pyproject.toml cannot declare: the message catalogs (locale/*/LC_MESSAGES/rollbook.po) compiled
into the .mo files a wheel carries (language.py reads them; a source checkout compiles the .po in memory instead)."""

from pathlib import Path

from setuptools import setup
from setuptools.command.build_py import build_py


class BuildWithCatalogs(build_py):
    def find_package_modules(self, package: str, package_dir: str) -> list[tuple[str, str, str]]:
        # The repository root is the package (pyproject.toml, package-dir): this file is not one of its modules.
        modules = super().find_package_modules(package, package_dir)
        return [entry for entry in modules if (entry[0], entry[1]) != ("rollbook", "setup")]

    def run(self) -> None:
        super().run()
        if self.editable_mode:
            return  # an editable install reads the .po where it is
        from babel.messages.mofile import write_mo
        from babel.messages.pofile import read_po

        for source in Path("locale").glob("*/LC_MESSAGES/*.po"):
            target = Path(self.build_lib) / "rollbook" / source.with_suffix(".mo")
            target.parent.mkdir(parents=True, exist_ok=True)
            with source.open("rb") as po, target.open("wb") as mo:
                write_mo(mo, read_po(po, locale=source.parts[1]))


setup(cmdclass={"build_py": BuildWithCatalogs})
