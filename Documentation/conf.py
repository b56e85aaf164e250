# SPDX-License-Identifier: GPL-2.0-only
#
# Sphinx configuration of the vaccel documentation.
#
# Build with scripts/docs.sh (`make docs`).  The kernel-doc directive comes
# from the Linux 6.12 source tree ($VACCEL_KSRC): its Sphinx extension
# Documentation/sphinx/kerneldoc.py and the scripts/kernel-doc parser.  No
# network access is needed.

import os
import re
import sys

_here = os.path.dirname(os.path.abspath(__file__))
_repo = os.path.dirname(_here)

_cache = os.environ.get('VACCEL_CACHE', '/var/cache/vaccel')
ksrc = os.environ.get('VACCEL_KSRC',
                      os.path.join(_cache, 'src', 'linux-source-6.12'))
if not os.path.isfile(os.path.join(ksrc, 'Documentation', 'sphinx',
                                   'kerneldoc.py')):
    raise RuntimeError('no kernel source tree at %s: run scripts/docs.sh '
                       '(it extracts linux-source-6.12)' % ksrc)

sys.path.insert(0, os.path.join(ksrc, 'Documentation', 'sphinx'))

# -- kernel-doc --------------------------------------------------------------

extensions = ['kerneldoc']

kerneldoc_bin = os.path.join(ksrc, 'scripts', 'kernel-doc')
# Paths in `.. kernel-doc::` are relative to the repository root.  A test
# build may point this at another tree with VACCEL_DOCS_SRCTREE.
kerneldoc_srctree = os.environ.get('VACCEL_DOCS_SRCTREE', _repo)
# Echo kernel-doc's own warnings.  scripts/docs.sh sets KDOC_WERROR=1, which
# turns them into a failed kernel-doc run and so into a Sphinx warning.
kerneldoc_verbosity = 1

# Kernel annotations that Sphinx's C parser does not know; the list follows
# the kernel's Documentation/conf.py.
c_id_attributes = [
    '__always_inline', '__always_unused', '__cold', '__force', '__init',
    '__exit', '__iomem', '__kernel', '__maybe_unused', '__must_check',
    '__noreturn', '__packed', '__percpu', '__pure', '__rcu', '__ref',
    '__used', '__user', '__weak', 'noinline', 'notrace', 'asmlinkage',
]
c_paren_attributes = ['__aligned', '__printf', '__section']

# -- project -----------------------------------------------------------------

project = 'vaccel'
copyright = '2026, The vaccel authors'
author = 'The vaccel authors'


def _uapi_version():
    try:
        with open(os.path.join(_repo, 'uapi', 'drm', 'vaccel_accel.h')) as f:
            text = f.read()
    except OSError:
        return ''
    major = re.search(r'#define\s+DRM_VACCEL_UAPI_MAJOR\s+(\d+)', text)
    minor = re.search(r'#define\s+DRM_VACCEL_UAPI_MINOR\s+(\d+)', text)
    if not major or not minor:
        return ''
    return 'uapi %s.%s' % (major.group(1), minor.group(1))


version = release = _uapi_version()

master_doc = 'index'
source_suffix = '.rst'
exclude_patterns = ['output', '_build']
primary_domain = 'c'
highlight_language = 'none'
language = 'en'

# -- HTML --------------------------------------------------------------------

html_theme = 'alabaster'
html_theme_options = {
    'page_width': '1100px',
    'sidebar_width': '230px',
    'show_powered_by': False,
}
html_title = 'vaccel documentation'
html_show_sourcelink = False
html_copy_source = False
html_last_updated_fmt = None

# -- man pages ---------------------------------------------------------------
#
# `scripts/docs.sh man` (`make man`) writes these into $VACCEL_BUILD/docs/man;
# `make install` installs them under $(PREFIX)/share/man/manN.  The sources
# are in Documentation/man/ and are also pages of the HTML documentation
# (building.rst's toctree).  Each page's own title is dropped by the man
# writer: NAME is made of the name and the description below.

man_pages = [
    ('man/vaccel-info', 'vaccel-info', 'describe vaccel devices',
     [author], 1),
    ('man/vaccel-sample', 'vaccel-sample',
     'fill and copy buffers on a vaccel device and time it', [author], 1),
    ('man/vaccel-top', 'vaccel-top',
     'show the engines, memory and queues of vaccel devices per process',
     [author], 1),
    ('man/vaccel-trace', 'vaccel-trace',
     'record and draw a timeline of vaccel engines', [author], 1),
    ('man/vaccel-coredump', 'vaccel-coredump',
     'decode vaccel device coredumps', [author], 1),
    ('man/vaccel-cc', 'vaccel-cc', 'build vaccel compute kernels',
     [author], 1),
    ('man/vaccel-opencl', 'vaccel-opencl',
     'the OpenCL platform of the vaccel virtual compute accelerator',
     [author], 7),
    ('man/libvaccel', 'libvaccel',
     'user-mode library of the vaccel virtual compute accelerator',
     [author], 3),
    ('man/vaccel', 'vaccel', 'virtual compute accelerator, DRM accel driver',
     [author], 4),
]
man_show_urls = False
man_make_section_directory = False
