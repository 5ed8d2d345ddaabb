# SPDX-License-Identifier: GPL-2.0-only
# bash completion for flashbench and erase (flashbench-erase installed)
#
# Installed as .../bash-completion/completions/flashbench; also works when
# sourced directly.  Completes options (long and short), option values
# where there is a sensible set (sizes, orders, --simulate keys, files),
# and block devices of flash cards for DEVICE.

# Block devices a card is likely to be: whole disks and partitions of
# MMC/SD, SCSI/USB and loop devices, plus files when the word is a path.
_flashbench_devices()
{
	local cur=$1 d
	local -a devs=()

	for d in /dev/mmcblk* /dev/sd* /dev/loop[0-9]*; do
		[[ -b $d && $d == "$cur"* ]] && devs+=("$d")
	done
	COMPREPLY+=("${devs[@]}")
	if [[ $cur == */* && $cur != /dev/* ]]; then
		COMPREPLY+=($(compgen -f -- "$cur"))
	fi
}

shopt -s extglob

# Options of flashbench that take a value, in either spelling.
_flashbench_value_opts='-b|--blocksize|-e|--erasesize|-c|--count|--scatter-order|--scatter-span|--interval-order|--open-au-nr|--offset|--fat-nr|--flush|--cache-cap|-o|--out|--analyze|--registers|--plot|--journal|--restore'

# Complete the value of option opt (given without "=value").
_flashbench_value()
{
	local opt=$1 cur=$2

	case $opt in
	-b|--blocksize)
		COMPREPLY=($(compgen -W '512 1K 2K 4K 8K 16K 32K 64K 128K 256K 512K 1M' -- "$cur"))
		;;
	-e|--erasesize)
		COMPREPLY=($(compgen -W '1M 2M 3M 4M 6M 8M 12M 16M 24M 32M' -- "$cur"))
		;;
	--offset)
		COMPREPLY=($(compgen -W '0 4M 8M 16M 32M 64M' -- "$cur"))
		;;
	--flush)
		COMPREPLY=($(compgen -W '64M 128M 256M 512M 1G 2G' -- "$cur"))
		;;
	--cache-cap)
		COMPREPLY=($(compgen -W '256M 512M 1G 2G 4G 8G' -- "$cur"))
		;;
	--scatter-order)
		COMPREPLY=($(compgen -W "$(echo {1..24})" -- "$cur"))
		;;
	--interval-order)
		COMPREPLY=($(compgen -W "$(echo {5..24})" -- "$cur"))
		;;
	-c|--count|--scatter-span|--open-au-nr|--fat-nr)
		COMPREPLY=($(compgen -W "$(echo {1..16})" -- "$cur"))
		;;
	--plot)
		COMPREPLY=($(compgen -f -X '!*.svg' -- "$cur") $(compgen -d -- "$cur"))
		;;
	--registers)
		COMPREPLY=($(compgen -d -- "$cur"))
		;;
	-o|--out|--analyze|--journal|--restore)
		COMPREPLY=($(compgen -f -- "$cur"))
		;;
	--simulate)
		_flashbench_simulate "$cur"
		;;
	esac
}

# --simulate=key=value,key=value: complete the key after the last comma.
_flashbench_simulate()
{
	local cur=$1 head= last=$1
	local keys='size= erase= page= open= open_random= fat= fat_start= noise= seed= read_mbps= write_mbps= access_us=
		page_us= au_us= erase_us= discard_us= fat_mbps= fat_page=
		readsig= fat_kind= plane= plane_us= group= group_us= au_spread=
		pause_pct= pause_us= readahead= random_mbps= collapse=
		real_size= fake= cache= claims= au= queue=
		queue_cache= ooo= random_us= close= fullclose= evict= used=
		fat_gain= busy_pct= busy_us= busy_burst= host= cache_kind=
		sector= ftl= map= spare= slc= slc_mbps= fold_mbps= maint_ms=
		maint_idle_ms= stall_ms= stall_writes= stall_bytes='

	if [[ $cur == *,* ]]; then
		head=${cur%,*},
		last=${cur##*,}
	fi
	if [[ $last == *=* ]]; then
		_flashbench_simulate_value "$head${last%%=*}=" "${last#*=}"
		return
	fi
	COMPREPLY=($(compgen -P "$head" -W "$keys" -- "$last"))
	compopt -o nospace 2>/dev/null
}

# The value of a --simulate key that takes words: head is everything up
# to the "=", cur the value typed so far.
_flashbench_simulate_value()
{
	local head=$1 cur=$2 key words
	local classes='C2 C4 C6 C10 U1 U3 V6 V10 V30 V60 V90 A1 A2'

	key=${head%=}
	key=${key##*[,=]}
	case $key in
	fake)
		words='limbo-zero limbo-garbage wrap'
		;;
	collapse)
		words='sharp gradual'
		;;
	fat_kind)
		words='linear random both'
		;;
	host)
		words='quiet light heavy'
		;;
	ftl)
		words='block page'
		;;
	claims)
		# C10+U1+A1: one class of each kind, joined by "+"
		if [[ $cur == *+* ]]; then
			head=$head${cur%+*}+
			cur=${cur##*+}
		fi
		words=$classes
		;;
	*)
		return
		;;
	esac
	COMPREPLY=($(compgen -P "$head" -W "$words" -- "$cur"))
}

# The options of this flashbench, from its --help (the list below if it
# cannot be run).
_flashbench_options()
{
	local cmd=$1 help

	help=$("$cmd" --help 2>/dev/null)
	if [[ -n $help ]]; then
		printf '%s\n' "$help" |
			grep -oE '(^|[ ,])--?[A-Za-z][A-Za-z-]*(\[?=)?' |
			sed -e 's/^[ ,]*//' -e 's/^\(.*\)\[=$/\1\n\1=/'
		return
	fi
	printf '%s\n' -a --align -s --scatter -i --interval -O --open-au \
		-f --find-fat --findfat -p --program -C --capacity -L --class \
		--auto --destructive --analyze --registers --survey --csv \
		--markdown --json --plot \
		--preserve --journal --restore --force --time-ops --hide-serial -b --blocksize \
		-e --erasesize -c --count --scatter-order --scatter-span \
		--interval-order --open-au-nr --offset -r --random --fat-nr --flush --cache-cap --sustained \
		-o --out -v --verbose -q --quiet --simulate --simulate= -h --help \
		-V --version
}

# The current word and the one before it, as typed: from COMP_LINE when
# bash gives it (its COMP_WORDS split "--opt=a=b,c" at every "="), else
# from COMP_WORDS.  Sets cur, prev and words (all words up to the cursor).
_flashbench_words()
{
	local line

	if [[ -n ${COMP_LINE+set} ]]; then
		line=${COMP_LINE:0:${COMP_POINT:-${#COMP_LINE}}}
		read -ra words <<< "$line"
		if [[ $line == *[[:space:]] ]]; then
			words+=("")
		fi
	else
		words=("${COMP_WORDS[@]:0:COMP_CWORD + 1}")
	fi
	cur=${words[${#words[@]} - 1]}
	prev=
	if ((${#words[@]} > 1)); then
		prev=${words[${#words[@]} - 2]}
	fi
}

_flashbench()
{
	local cur prev opts w opt
	local -a words

	COMPREPLY=()
	_flashbench_words
	if [[ $cur == --*=* ]]; then
		opt=${cur%%=*}
		_flashbench_value "$opt" "${cur#*=}"
		COMPREPLY=("${COMPREPLY[@]/#/$opt=}")
		# bash replaces only what follows the last "=" of the word
		if [[ -n ${COMP_LINE+set} && $COMP_WORDBREAKS == *=* ]]; then
			w=${cur%"${cur##*=}"}
			COMPREPLY=("${COMPREPLY[@]#"$w"}")
		fi
		return
	fi
	if [[ $prev == @($_flashbench_value_opts) ]]; then
		_flashbench_value "$prev" "$cur"
		return
	fi
	if [[ $cur == -* ]]; then
		opts=$(_flashbench_options "${words[0]}" | sort -u)
		COMPREPLY=($(compgen -W "$opts" -- "$cur"))
		# an option that wants "=value" should not get a space
		for w in "${COMPREPLY[@]}"; do
			if [[ $w == *= ]]; then
				compopt -o nospace 2>/dev/null
				break
			fi
		done
		return
	fi
	# DEVICE: none with --simulate, --analyze or --registers (--restore
	# JOURNAL DEVICE takes one); --survey takes records and directories
	for w in "${words[@]}"; do
		case $w in
		--survey)
			COMPREPLY=($(compgen -d -- "$cur")
				   $(compgen -f -X '!*.json' -- "$cur"))
			compopt -o filenames 2>/dev/null
			return
			;;
		--simulate*|--analyze*|--registers*)
			return
			;;
		esac
	done
	_flashbench_devices "$cur"
}

_flashbench_erase()
{
	local cur prev w nargs=0
	local -a words

	COMPREPLY=()
	_flashbench_words
	if [[ $cur == -* ]]; then
		COMPREPLY=($(compgen -W '-h --help -V --version' -- "$cur"))
		return
	fi
	for w in "${words[@]:1:${#words[@]} - 2}"; do
		[[ $w != -* ]] && ((nargs++))
	done
	case $nargs in
	0)
		_flashbench_devices "$cur"
		;;
	1|2)
		COMPREPLY=($(compgen -W '0 4M 8M 16M 32M 64M' -- "$cur"))
		;;
	esac
}

complete -F _flashbench flashbench
complete -F _flashbench_erase erase flashbench-erase
