/* tests/unit/test_bind_kwargs.c — the keyword order of 1.13's "invalid
 * combination of arguments" messages: bind_kwargs_order against the
 * iteration order of a libstdc++ std::unordered_map<std::string, ...> filled
 * in the same order (pasted from a g++ program that prints it). */
#include <stdio.h>
#include <string.h>
#include "unit.h"
#include "bind/table.h"

static const struct { const char *given, *iterated; } cases[] = {
    {"out dtype device layout foo bar", "bar foo layout device dtype out"},
    {"alpha beta gamma delta eps", "eps gamma beta delta alpha"},
    {"a b c d e", "e c b d a"},
    {"mub _r ls q bcnn hc nb_sdhuus s", "hc q nb_sdhuus bcnn ls s _r mub"},
    {"bhbrejn rds r_vfd sugldrwcsb gpvrnykoso jhzfwy csjq kxojtcdq fykepnb cyrsz_kkwlt szoc_cip vcbxwjusv_oj mvlaolftdpbg exhmm cfomrie_ riwnlvm ecfe vhap fijaenrlts ewqtuv", "fijaenrlts vhap ecfe bhbrejn rds r_vfd vcbxwjusv_oj kxojtcdq fykepnb gpvrnykoso ewqtuv cfomrie_ exhmm sugldrwcsb szoc_cip jhzfwy cyrsz_kkwlt riwnlvm csjq mvlaolftdpbg"},
    {"o zrmmmmdpumb cgof kt d s rdl acgtmeuilt pddpop jcedxkxi _wfqagql wra jucwiqlfl rryq uhtzzy zh_m zhgqplxaazip gwtlo llchdhpgkgpt _apulzuc_v mz ygpfnzukczxm mxcxffea soz et_tpvlerre a udqxeng_gaig qhysk rn_eb lovs_qn_qere qaoyftayz", "lovs_qn_qere jucwiqlfl wra soz jcedxkxi qaoyftayz rryq pddpop et_tpvlerre d kt s rn_eb _wfqagql acgtmeuilt cgof _apulzuc_v zrmmmmdpumb uhtzzy o ygpfnzukczxm zh_m zhgqplxaazip rdl llchdhpgkgpt mz mxcxffea a udqxeng_gaig gwtlo qhysk"},
    {"ept drbkvqqrpzyd bhgibydqo aycoktqtq wioq", "bhgibydqo drbkvqqrpzyd wioq aycoktqtq ept"},
    {"qhwqirg_ endmokcv ncgv zdyew vleieohxdmp v_h wnq knglkcx akroow m qtjqcd dcii y iye v_imerq pwkcibzwfn ia czicthcidoa rniteb whdfibfgj", "whdfibfgj rniteb czicthcidoa ia pwkcibzwfn v_imerq endmokcv wnq ncgv knglkcx dcii zdyew vleieohxdmp qhwqirg_ v_h iye akroow m qtjqcd y"},
    {"qygjo vfilzaiba x rgqphodv_ nvpr_mqjwgh g_wxue lb_eacu infbcv_mqvjt wjbo fio i krkhbj lfak cpiqugh yaci_cems m j uhcsq vwz mykxpejxtu b__ qunxwzqeqyqs _ szwvwuhcabe ldm_orbuaur hpiaozcxqrc qcxxpizcihx hxuo mcpvjybt ugctekiuxwj seapbpivdw", "seapbpivdw i lfak hpiaozcxqrc szwvwuhcabe mcpvjybt fio b__ rgqphodv_ qcxxpizcihx g_wxue wjbo yaci_cems ldm_orbuaur vfilzaiba krkhbj qygjo j vwz uhcsq x cpiqugh m nvpr_mqjwgh qunxwzqeqyqs mykxpejxtu ugctekiuxwj infbcv_mqvjt _ lb_eacu hxuo"},
};

TEST(kwargs_unordered_map_order)
{
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        char buf[512], out[512] = "";
        const char *names[BIND_MAXKW];
        int n = 0, order[BIND_MAXKW];
        snprintf(buf, sizeof buf, "%s", cases[c].given);
        for (char *w = strtok(buf, " "); w && n < BIND_MAXKW; w = strtok(NULL, " ")) names[n++] = w;
        bind_kwargs_order(n, names, order);
        for (int k = 0; k < n && order[k] >= 0; k++) {
            strcat(out, k ? " " : "");
            strcat(out, names[order[k]]);
        }
        CHECK_STR(out, cases[c].iterated);
    }
}
