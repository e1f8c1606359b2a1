# Sourced by the page checks (check-suite-html.sh, check-bench-html.sh): installs Debian's chromium when it is
# missing, naming the script that needed it.
ensure_chromium() {
    command -v chromium >/dev/null && return 0
    echo "$1: installing chromium"
    local sudo_cmd=""
    [ "$(id -u)" -eq 0 ] || sudo_cmd="sudo"
    $sudo_cmd apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq chromium >/dev/null
}
