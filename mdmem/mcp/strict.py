"""Tools that take only the arguments they name, and say so in their own words.

The SDK builds a tool's input schema from its function, lets unknown properties through
and reports a bad argument as pydantic prints it (with the value given, which may be a
secret). Here each tool's schema says `additionalProperties: false`, its arguments are
checked by a model that forbids others, and a bad call is answered with a tool error
naming the arguments (`add_fact`: unknown argument `anti-pattern`; did you mean
`anti_pattern`?), never the value given. Each tool also carries its `outputSchema`
(`shapes`), which a client checks its structured content against.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable
from typing import Any

from mcp.server.mcpserver.tools import Tool
from mcp.server.mcpserver.utilities.func_metadata import ArgModelBase, FuncMetadata
from mcp.types import CallToolResult, TextContent, ToolAnnotations
from pydantic import ConfigDict, ValidationError
from pydantic_core import ErrorDetails

from mdmem.safety.secrets import redact


class StrictTool(Tool):
    """A tool whose call is refused, as a tool error in mdmem's words, when its arguments
    are not those its schema names."""

    async def run(self, arguments: dict[str, Any], *args: Any, **kwargs: Any) -> Any:
        try:
            self.fn_metadata.arg_model.model_validate(self.fn_metadata.pre_parse_json(arguments))
        except ValidationError as exc:
            names = list(self.parameters.get("properties", {}))
            refusal = f"mdmem: {self.name}: {refusals(exc, names)}; nothing done"
            return CallToolResult(content=[TextContent(type="text", text=refusal)], is_error=True)
        return await super().run(arguments, *args, **kwargs)


def refusals(exc: ValidationError, names: list[str]) -> str:
    """What is wrong with the arguments, each problem once, in the tool's names."""
    found = [_refusal(error, names) for error in exc.errors(include_input=False)]
    return redact("; ".join(dict.fromkeys(found)))


def _refusal(error: ErrorDetails, names: list[str]) -> str:
    where = [str(part) for part in error["loc"]]
    name = where[0] if where else "?"
    if error["type"] == "extra_forbidden":
        near = difflib.get_close_matches(name.replace("-", "_").lower(), names, n=1, cutoff=0.6)
        meant = f"; did you mean `{near[0]}`?" if near else ""
        return f"unknown argument `{name}` (the arguments are {', '.join(names)}){meant}"
    if error["type"] == "missing":
        return f"`{name}` is required"
    at = name + "".join(f"[{part}]" for part in where[1:])
    return f"`{at}`: {error['msg'][0].lower()}{error['msg'][1:]}"


def strict_tool(
    fn: Callable[..., Any],
    name: str,
    title: str,
    description: str,
    annotations: ToolAnnotations,
    output_schema: dict[str, Any],
) -> StrictTool:
    """The tool of `fn`: its arguments' model forbidding any other, its input schema
    saying so, and `output_schema` as what it answers."""
    built = Tool.from_function(
        fn,
        name=name,
        title=title,
        description=description,
        annotations=annotations,
        structured_output=False,
    )
    loose = built.fn_metadata.arg_model
    forbidding = {"model_config": ConfigDict(arbitrary_types_allowed=True, extra="forbid")}
    model: type[ArgModelBase] = type(loose.__name__, (loose,), forbidding)
    metadata = FuncMetadata(arg_model=model, output_schema=output_schema)
    fields = {key: getattr(built, key) for key in Tool.model_fields}
    parameters = model.model_json_schema(by_alias=True)
    return StrictTool(**{**fields, "parameters": parameters, "fn_metadata": metadata})
