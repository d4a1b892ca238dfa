"""Loaded (through PYTHONPATH) by the Python that runs mpxpy's suite in `make client-compat`.

Debian 12 ships typing_extensions 4.4 (no `deprecated`, added in 4.5) and pydantic 1.10 (mpxpy
declares pydantic 2's `model_config = {"arbitrary_types_allowed": True}`). These two fill-ins
give the client what it declares, so its own code runs unchanged; on newer packages they do nothing.
"""
import functools
import warnings

import pydantic
import typing_extensions

if not hasattr(typing_extensions, "deprecated"):

    def deprecated(message, *, category=DeprecationWarning, stacklevel=1):
        def wrap(target):
            if isinstance(target, type):
                init = target.__init__

                @functools.wraps(init)
                def warned_init(self, *args, **kwargs):
                    warnings.warn(message, category, stacklevel=stacklevel + 1)
                    init(self, *args, **kwargs)

                target.__init__ = warned_init
                return target

            @functools.wraps(target)
            def warned(*args, **kwargs):
                warnings.warn(message, category, stacklevel=stacklevel + 1)
                return target(*args, **kwargs)

            return warned

        return wrap

    typing_extensions.deprecated = deprecated

if pydantic.VERSION.startswith("1."):
    pydantic.config.BaseConfig.arbitrary_types_allowed = True
