/// The bash completion of the `mediashell` command line: its options and `serve`'s, camera URL schemes
/// after `--camera` (with the attached `usb:` cameras that `mediashell devices` lists, and folders after
/// `dir:` and `sim:`), files after `-f`, folders after `--download-dir`. `mediashell --bash-completion`
/// prints it; `scripts/install` installs it. Made from `CommandLineOptions`, so new options appear in it.
public enum BashCompletion {
    public static func script() -> String {
        let shellOptions = CommandLineOptions.spellings(CommandLineOptions.shell).joined(separator: " ")
        let serveOptions = CommandLineOptions.spellings(CommandLineOptions.serve).joined(separator: " ")
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
                    --camera)
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
                    -f|--file|--debug-ptp)
                        while IFS= read -r path; do found+=("$path"); done < <(compgen -f -- "$cur") ;;
                    --download-dir)
                        while IFS= read -r path; do found+=("$path"); done < <(compgen -d -- "$cur") ;;
                    -c|--command|--listen|--link|--quirks|--max-upload)
                        ;;
                    *)
                        local position=${#parts[@]}
                        [[ -z $cur ]] && position=$((position + 1))
                        if ((position == 2)); then
                            while IFS= read -r path; do found+=("$path"); done < <(compgen -W "serve devices \#(shellOptions)" -- "$cur")
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
