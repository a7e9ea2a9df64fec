import CommandKit

/// The bash completion of the `mediashell` command line: its options and `serve`'s, camera URL schemes
/// after `--camera` (with the attached `usb:` cameras that `mediashell devices` lists, and folders after
/// `dir:` and `sim:`), files after `-f`, folders after `--download-dir`. `mediashell --bash-completion`
/// prints it; `scripts/install` installs it. Made from the programs' declarations (the shell's first, then
/// `serve` and `devices`), so new options appear in it.
enum BashCompletion {
    static func script(programs: [CommandSpec]) -> String {
        let shell = programs.first
        let shellOptions = (shell?.optionSpellings ?? []).joined(separator: " ")
        let serveOptions = (programs.first { $0.name == "serve" }?.optionSpellings ?? []).joined(separator: " ")
        let subprograms = programs.dropFirst().map(\.name).joined(separator: " ")
        /// The spellings of the options whose value is of `kinds`, as a bash case pattern (`-f|--file`).
        func taking(_ kinds: (ArgumentKind) -> Bool) -> String {
            programs.flatMap { $0.options.filter { $0.value.map { kinds($0.kind) } ?? false }.flatMap(\.spellings) }
                .joined(separator: "|")
        }
        let cameraValues = taking { $0 == .cameraURL }
        let fileValues = taking { $0 == .localPath }
        let folderValues = taking { $0 == .localFolder }
        let freeValues = taking { $0 != .cameraURL && $0 != .localPath && $0 != .localFolder }
        return #"""
            # bash completion for mediashell (made by 'mediashell --bash-completion')
            _mediashell() {
                local line=${COMP_LINE:0:COMP_POINT} cur prev
                local -a parts
                read -ra parts <<< "$line"
                if [[ $line =~ [[:space:]]$ ]]; then
                    cur=""; prev=${parts[${#parts[@]}-1]}
                else
                    cur=${parts[${#parts[@]}-1]}; prev=${parts[${#parts[@]}-2]}
                fi
                local -a found=()
                case $prev in
                    \#(cameraValues))
                        case $cur in
                            dir:*|sim:*)
                                local scheme=${cur%%:*}: path
                                while IFS= read -r path; do found+=("$scheme$path/"); done < <(compgen -d -- "${cur#*:}")
                                ;;
                            *)
                                local device
                                while IFS= read -r device; do found+=("$device"); done < <(
                                    "${COMP_WORDS[0]}" devices 2>/dev/null | awk '$1 ~ /^usb:/ { print $1 }')
                                found+=(usb: ptpip: fuji: dir: sim:)
                                local -a matching=()
                                for device in "${found[@]}"; do [[ $device == "$cur"* ]] && matching+=("$device"); done
                                found=("${matching[@]}")
                                ;;
                        esac
                        compopt -o nospace 2>/dev/null
                        ;;
                    \#(fileValues))
                        while IFS= read -r path; do found+=("$path"); done < <(compgen -f -- "$cur") ;;
                    \#(folderValues))
                        while IFS= read -r path; do found+=("$path"); done < <(compgen -d -- "$cur") ;;
                    \#(freeValues))
                        ;;
                    *)
                        local position=${#parts[@]}
                        [[ -z $cur ]] && position=$((position + 1))
                        if ((position == 2)); then
                            while IFS= read -r path; do found+=("$path"); done < <(compgen -W "\#(subprograms) \#(shellOptions)" -- "$cur")
                        elif [[ ${parts[1]} == serve ]]; then
                            if [[ $cur == -* ]]; then
                                while IFS= read -r path; do found+=("$path"); done < <(compgen -W "\#(serveOptions)" -- "$cur")
                            else
                                while IFS= read -r path; do found+=("$path"); done < <(compgen -d -- "$cur")
                            fi
                        else
                            while IFS= read -r path; do found+=("$path"); done < <(compgen -W "\#(shellOptions)" -- "$cur")
                        fi
                        ;;
                esac
                # bash splits words at ':': offer only what follows the last colon of the word typed.
                if [[ $cur == *:* && $COMP_WORDBREAKS == *:* ]]; then
                    local colon=${cur%"${cur##*:}"} i
                    for i in "${!found[@]}"; do found[i]=${found[i]#"$colon"}; done
                fi
                COMPREPLY=("${found[@]}")
            }
            complete -F _mediashell mediashell

            """#
    }
}
