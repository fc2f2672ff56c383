/* tests/unit/test_runtime_random.c — runtime/ops/random against torch 1.13:
 * streams for seeds 0, 1, 42 and 2**32+5 compared bit for bit with values
 * pasted from the oracle (hex floats; made by torch.manual_seed(s) then the
 * call named in each STREAM row), plus the state layout and the errors. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "tsr.h"
#include "ops/random.h"
#include "unit.h"

/* ---- oracle tables (torch 1.13, python3-torch on this machine) ---- */
static const uint32_t raw_0[] = {2357136044u, 2546248239u, 3071714933u, 3626093760u, 2588848963u, 3684848379u, 2340255427u, 3638918503u};
static const double rand_f32_0[] = {0x1.fc2ab00000000p-2, 0x1.89545e0000000p-1, 0x1.6a67500000000p-4, 0x1.0e66000000000p-3, 0x1.3acd0c0000000p-2};
static const double rand_f64_0[] = {0x1.f0aac97c4aa2fp-1, 0x1.6a675d821ccc0p-1, 0x1.d6687b744a5f6p-2, 0x1.d76c3d8e57d67p-1, 0x1.4a4099fa1ded3p-1, 0x1.951156266d6f2p-1, 0x1.6dc9130ace95cp-3, 0x1.6788c1d097bb0p-2, 0x1.29a5845cccd8cp-1, 0x1.27274f4908582p-2, 0x1.cfbcd9fd4944ep-2, 0x1.6a15deb7f22b8p-3, 0x1.6bcb0c91b16a2p-2, 0x1.3e6a5d6094219p-1, 0x1.ed69aacbf3090p-2, 0x1.c36134bdd2f28p-2, 0x1.a10e6bc8a27a0p-2, 0x1.a4bcfd4207b14p-3, 0x1.547fe23ee074fp-1, 0x1.91dafdebe09c0p-1};
static const double randn_f32_5_0[] = {0x1.8a7eb80000000p+0, -0x1.2c78a00000000p-2, -0x1.16e2920000000p+1, 0x1.23096c0000000p-1, -0x1.15a3420000000p+0};
static const double randn_f32_17_0[] = {-0x1.20370a0000000p+0, -0x1.b2288c0000000p+0, 0x1.2220080000000p-1, 0x1.9646ba0000000p-1, 0x1.329b160000000p-1, -0x1.8e1ab60000000p+0, -0x1.5d8d940000000p-2, 0x1.da5e9c0000000p+0, 0x1.df54aa0000000p-2, -0x1.2bc6560000000p-1, -0x1.631dd60000000p-3, 0x1.77c3480000000p-3, 0x1.63ad800000000p+0, 0x1.961a000000000p+0, 0x1.e481380000000p-1, -0x1.aff6660000000p-1, 0x1.dd18600000000p-1};
static const double randn_f64_17_0[] = {-0x1.27bb92e9262dcp+1, -0x1.443c91ccf2402p-1, -0x1.42cbf54f08f8ep+0, -0x1.7432edfaba107p-1, -0x1.471a3c0e2f22ap-6, 0x1.aeb1b572b6a04p-3, 0x1.6ae2402b7b62bp-3, -0x1.a9389d082941dp-1, 0x1.e8e503666016dp-3, -0x1.f101e358981adp-3, -0x1.8bc82256d975bp-1, -0x1.985dd0627b1f0p+0, -0x1.5fbef2bc4be3bp-1, 0x1.7cf270386ca66p+0, -0x1.cb2d8340fb171p-2, -0x1.c8318cc163de5p-1, 0x1.5986ed8e63e98p-1};
static const double randn_f16_16_0[] = {-0x1.cd40000000000p-1, 0x1.ecc0000000000p-2, 0x1.32c0000000000p+0, 0x1.cf80000000000p-1, 0x1.9980000000000p-1, -0x1.0500000000000p-2, -0x1.e340000000000p+0, -0x1.7780000000000p-3, -0x1.a240000000000p-6, -0x1.4640000000000p-1, 0x1.5cc0000000000p+0, -0x1.fb00000000000p-1, -0x1.4700000000000p-1, 0x1.dcc0000000000p-1, -0x1.a3c0000000000p-2, -0x1.7d00000000000p+0};
static const double randn_bf16_17_0[] = {0x1.7600000000000p+0, -0x1.0400000000000p-1, -0x1.be00000000000p-2, 0x1.5e00000000000p+0, -0x1.5800000000000p-1, -0x1.c600000000000p-4, 0x1.ca00000000000p-1, -0x1.5600000000000p+0, -0x1.c000000000000p-1, 0x1.2600000000000p+0, -0x1.2600000000000p-1, 0x1.ec00000000000p-1, 0x1.0400000000000p+1, 0x1.2000000000000p-1, 0x1.9a00000000000p-3, -0x1.6600000000000p-1, 0x1.2200000000000p-2};
static const double rand_f16_4_0[] = {0x1.5600000000000p-2, 0x1.1780000000000p-2, 0x1.9d40000000000p-1, 0x1.3000000000000p-1};
static const double uniform_f32_0[] = {0x1.3405660000000p-1, 0x1.2693d20000000p+1, -0x1.f26fa40000000p+0, -0x1.acc0500000000p+0, -0x1.283f3a0000000p-1, 0x1.7686a00000000p+0};
static const double normal_f64_0[] = {0x1.e29fae240af8ep+0, 0x1.6d3875f783901p+0, 0x1.e91d6df58f11bp-1, 0x1.a4612d947c6a2p+0};
static const double exponential_f64_0[] = {0x1.2b608e13deb20p+1, 0x1.a3f8a944dd50ap-1, 0x1.a3debef7a91e6p-2, 0x1.b0a9060d9764cp+0};
static const double cauchy_f64_0[] = {0x1.5b209940bebcfp+4, 0x1.03c7c9810f12ep+1, 0x1.f27c639a78a18p-3, 0x1.0bb7791edf847p+3};
static const double log_normal_f32_0[] = {0x1.6325520000000p+1, 0x1.1bdad60000000p+0, 0x1.ba56d80000000p-2, 0x1.b4c3980000000p+0};
static const double geometric_f64_0[] = {0x1.0000000000000p+0, 0x1.0000000000000p+0, 0x1.8000000000000p+1, 0x1.0000000000000p+0};
static const double bernoulli_f32_0[] = {0x0.0p+0, 0x0.0p+0, 0x0.0p+0, 0x0.0p+0, 0x0.0p+0, 0x0.0p+0, 0x1.0000000000000p+0, 0x1.0000000000000p+0};
static const double poisson_f64_0[] = {0x1.0000000000000p+1, 0x1.0000000000000p+2, 0x1.a000000000000p+3, 0x1.8c00000000000p+6};
static const double randint_0[] = {-0x1.0000000000000p+0, 0x1.0000000000000p+2, -0x1.0000000000000p+1, -0x1.4000000000000p+2, -0x1.0000000000000p+1, 0x1.0000000000000p+2, 0x1.0000000000000p+1, -0x1.0000000000000p+1};
static const double randint_wide_0[] = {0x1.592f89545e000p+39, 0x1.d760873300000p+38, 0x1.0f6e894bec000p+38};
static const double randperm_0[] = {0x1.0000000000000p+2, 0x1.0000000000000p+0, 0x1.c000000000000p+2, 0x1.4000000000000p+2, 0x1.8000000000000p+1, 0x1.2000000000000p+3, 0x0.0p+0, 0x1.0000000000000p+3, 0x1.8000000000000p+2, 0x1.0000000000000p+1};
static const double multinomial_0[] = {0x1.8000000000000p+1, 0x1.8000000000000p+1, 0x1.0000000000000p+1, 0x1.8000000000000p+1, 0x1.8000000000000p+1, 0x1.8000000000000p+1};
static const double multinomial_norep_0[] = {0x1.0000000000000p+1, 0x1.0000000000000p+0, 0x1.8000000000000p+1, 0x0.0p+0};
static const uint32_t raw_1[] = {1791095845u, 4282876139u, 3093770124u, 4005303368u, 491263u, 550290313u, 1298508491u, 4290846341u};
static const double rand_f32_1[] = {0x1.83e84a0000000p-1, 0x1.1e03ac0000000p-2, 0x1.9cbe300000000p-2, 0x1.7828900000000p-1, 0x1.dfbfc00000000p-6};
static const double rand_f64_1[] = {0x1.f425ff4780eb0p-5, 0x1.cbe33baf05120p-3, 0x1.dfbfc83330e24p-3, 0x1.6ab2fff047a14p-3, 0x1.1cb4f3c7053c0p-1, 0x1.c04832c328408p-4, 0x1.d7f98c69c3c8ep-2, 0x1.6aaedab7479fcp-1, 0x1.28d86ef7f7d19p-1, 0x1.fc965b14faa28p-2, 0x1.054fe5032b165p-1, 0x1.517250c9193a8p-2, 0x1.6fb8b718620fcp-1, 0x1.89bd4758b2538p-2, 0x1.6fcec467acc70p-4, 0x1.e11974fcb5220p-4, 0x1.47cd7750b5fd7p-1, 0x1.92fa5b9090bc4p-3, 0x1.065f7f06aaddep-1, 0x1.6c760c7448456p-1};
static const double randn_f32_5_1[] = {0x1.529cc00000000p-1, 0x1.11548e0000000p-2, 0x1.f942960000000p-5, 0x1.3e1d4e0000000p-1, -0x1.cec0700000000p-2};
static const double randn_f32_17_1[] = {-0x1.868d740000000p+0, -0x1.2927aa0000000p+0, 0x1.662a6c0000000p-1, 0x1.97b81c0000000p-3, 0x1.bb3c080000000p-1, 0x1.f48a080000000p-3, -0x1.53691e0000000p-1, 0x1.9d57820000000p-1, 0x1.c1ae540000000p-2, -0x1.6851280000000p-3, -0x1.1f6e700000000p+1, -0x1.724b120000000p+0, 0x1.f4fbec0000000p-5, -0x1.3c49000000000p-1, -0x1.989c9c0000000p-1, -0x1.0d90780000000p-3, -0x1.98cd1a0000000p-1};
static const double randn_f64_17_1[] = {-0x1.3ec2b05b54971p-2, 0x1.7ef6234f2b7ecp-2, 0x1.25d654b7b0adcp-1, 0x1.91d911bed3c78p+0, 0x1.bf34427c542acp-1, -0x1.da326c6448723p+1, -0x1.d06c655b7adc3p+0, -0x1.d7b2c0598141dp+0, 0x1.818c389b97035p-4, 0x1.17a9eda258ec5p-1, 0x1.0d640b68ad8acp+0, -0x1.403bfa0ff88f6p-3, -0x1.0cedbec231a3ep+1, 0x1.9469e9fae1e41p+0, 0x1.1556e77117ceep+0, 0x1.c7836b0b2366fp-1, -0x1.edb7a381131e9p+0};
static const double randn_f16_16_1[] = {-0x1.0880000000000p+0, -0x1.efc0000000000p-2, 0x1.1540000000000p+1, 0x1.2440000000000p+0, 0x1.0180000000000p+1, 0x1.dd00000000000p-3, -0x1.3bc0000000000p-1, 0x1.6f40000000000p-6, 0x1.4000000000000p-1, 0x1.8a40000000000p-4, 0x1.0640000000000p+0, 0x1.e880000000000p-2, -0x1.4880000000000p-2, -0x1.0e00000000000p+0, 0x1.6240000000000p-1, 0x1.d640000000000p+0};
static const double randn_bf16_17_1[] = {-0x1.9c00000000000p-3, 0x1.ce00000000000p-2, 0x1.5200000000000p+0, -0x1.4000000000000p-2, -0x1.2c00000000000p+1, -0x1.e200000000000p-1, 0x1.c000000000000p-2, -0x1.8400000000000p-3, 0x1.5800000000000p-1, -0x1.6400000000000p-5, -0x1.9000000000000p-1, -0x1.0600000000000p-2, -0x1.0600000000000p+1, -0x1.5800000000000p-2, 0x1.3800000000000p+0, 0x1.de00000000000p+0, -0x1.0e00000000000p+0};
static const double rand_f16_4_1[] = {0x1.0940000000000p-1, 0x1.d600000000000p-4, 0x1.e300000000000p-1, 0x1.1200000000000p-1};
static const double uniform_f32_1[] = {0x1.1e1af40000000p+1, -0x1.8234860000000p-1, 0x1.3a4ac00000000p-6, 0x1.0bbf600000000p+1, -0x1.2893240000000p+1, 0x1.3fe30c0000000p+1};
static const double normal_f64_1[] = {0x1.aa53980f0227bp+0, 0x1.911548d02b8fep+0, 0x1.83f2852bc253bp+0, 0x1.a7c3a9c1c9160p+0};
static const double exponential_f64_1[] = {0x1.580b8ad6b7468p-5, 0x1.5b3a70423c0b5p-3, 0x1.6c694bbae1a6dp-3, 0x1.0a215b5c9a63ap-3};
static const double cauchy_f64_1[] = {-0x1.39923731ff0c2p+3, -0x1.d92d3b3b99bd2p+0, -0x1.b5578c97eae6ep+0, -0x1.5ba2ba0c3a0e7p+1};
static const double log_normal_f32_1[] = {0x1.c988fa0000000p+0, 0x1.77a4a20000000p+0, 0x1.5301620000000p+0, 0x1.c077aa0000000p+0};
static const double geometric_f64_1[] = {0x1.0000000000000p+3, 0x1.4000000000000p+2, 0x1.4000000000000p+2, 0x1.4000000000000p+2};
static const double bernoulli_f32_1[] = {0x1.0000000000000p+0, 0x1.0000000000000p+0, 0x1.0000000000000p+0, 0x1.0000000000000p+0, 0x0.0p+0, 0x1.0000000000000p+0, 0x0.0p+0, 0x0.0p+0};
static const double poisson_f64_1[] = {0x0.0p+0, 0x1.0000000000000p+1, 0x1.a000000000000p+3, 0x1.8c00000000000p+6};
static const double randint_1[] = {0x0.0p+0, 0x1.0000000000000p+2, -0x1.0000000000000p+0, 0x1.8000000000000p+1, -0x1.0000000000000p+1, -0x1.0000000000000p+1, -0x1.0000000000000p+2, -0x1.0000000000000p+2};
static const double randint_wide_1[] = {0x1.2ffa3c0758000p+37, 0x1.19dd782890000p+39, 0x1.fe41998712000p+39};
static const double randperm_1[] = {0x1.4000000000000p+2, 0x1.8000000000000p+2, 0x1.0000000000000p+0, 0x1.0000000000000p+1, 0x0.0p+0, 0x1.0000000000000p+3, 0x1.2000000000000p+3, 0x1.8000000000000p+1, 0x1.c000000000000p+2, 0x1.0000000000000p+2};
static const double multinomial_1[] = {0x0.0p+0, 0x1.0000000000000p+0, 0x1.0000000000000p+0, 0x1.0000000000000p+0, 0x1.0000000000000p+1, 0x1.0000000000000p+0};
static const double multinomial_norep_1[] = {0x1.8000000000000p+1, 0x0.0p+0, 0x1.0000000000000p+1, 0x1.0000000000000p+0};
static const uint32_t raw_2[] = {1608637542u, 3421126067u, 4083286876u, 787846414u, 3143890026u, 3348747335u, 2571218620u, 2563451924u};
static const double rand_f32_2[] = {0x1.c3b8cc0000000p-1, 0x1.d47b660000000p-1, 0x1.880d700000000p-2, 0x1.eb2a1c0000000p-1, 0x1.8fd1a80000000p-2};
static const double rand_f64_2[] = {0x1.dc66cbea3db30p-5, 0x1.01ae177aca870p-4, 0x1.fa3563ccea238p-4, 0x1.aebc98cb2c140p-5, 0x1.0d66672221879p-1, 0x1.e83a4332fe9acp-2, 0x1.e914a759155cap-1, 0x1.db857556ded74p-1, 0x1.5631924975b38p-4, 0x1.0fa5e9a828208p-3, 0x1.41a5439c3f4d0p-3, 0x1.8060371a9d2aep-2, 0x1.af5ebf044fd9dp-1, 0x1.bdb2500330981p-1, 0x1.8297ffc032776p-2, 0x1.399149e1344a0p-1, 0x1.68e5ce4aa69c8p-4, 0x1.6701501cf18fcp-1, 0x1.3f2eb05e76b58p-1, 0x1.bfc610caf43b4p-2};
static const double randn_f32_5_2[] = {0x1.58c55c0000000p-2, 0x1.07cd3a0000000p-3, 0x1.e02dce0000000p-3, 0x1.d7b8d80000000p-3, -0x1.1f73840000000p+0};
static const double randn_f32_17_2[] = {0x1.ed4a520000000p+0, -0x1.46db0a0000000p-3, -0x1.fd55c80000000p-2, 0x1.c223b00000000p-2, -0x1.8429c40000000p-1, 0x1.140ca00000000p+0, 0x1.9a02880000000p-1, 0x1.ae3d260000000p+0, 0x1.6c668a0000000p-2, 0x1.4be25e0000000p+0, 0x1.388f100000000p-1, 0x1.55b1600000000p+0, -0x1.da5dda0000000p-3, 0x1.5618000000000p-5, -0x1.019cf40000000p-2, 0x1.b83f600000000p-1, -0x1.3d29040000000p-2};
static const double randn_f64_17_2[] = {0x1.32bee22ccb503p-2, 0x1.812ba60e823bdp+0, 0x1.4586fc50325b4p+0, 0x1.3cc2503d82af8p-1, -0x1.30c45c7145abep-5, 0x1.0905f784f7792p+0, -0x1.4a7b7ceff41c7p-7, 0x1.6e82bfad73187p-4, 0x1.3adc896b5cc6ap-5, 0x1.8f5d12bd9d16ap-2, -0x1.28e0fab040e8cp-1, 0x1.c07529caa8c80p-1, 0x1.91cd551d1ca00p-2, 0x1.1bc41cab382c5p+0, 0x1.baf804309bfb6p-1, 0x1.b5deddd314d28p-1, 0x1.fecba7d412db7p-3};
static const double randn_f16_16_2[] = {0x1.8c00000000000p-2, 0x1.78c0000000000p+0, 0x1.2cc0000000000p-3, -0x1.1e80000000000p+0, 0x1.5780000000000p-1, -0x1.a180000000000p-3, 0x1.da00000000000p+0, -0x1.ff00000000000p-2, -0x1.3400000000000p+0, 0x1.2540000000000p-1, 0x1.0880000000000p+0, -0x1.ba40000000000p-1, 0x1.1300000000000p+0, -0x1.3880000000000p+0, 0x1.0340000000000p-1, -0x1.15c0000000000p+0};
static const double randn_bf16_17_2[] = {-0x1.9e00000000000p-1, -0x1.8800000000000p-1, 0x1.a600000000000p-1, -0x1.3000000000000p+0, -0x1.0e00000000000p-5, -0x1.4800000000000p-4, 0x1.4000000000000p-4, -0x1.4c00000000000p-1, 0x1.2200000000000p-1, -0x1.5600000000000p-1, 0x1.0e00000000000p+0, -0x1.2600000000000p-5, -0x1.5200000000000p+0, -0x1.5800000000000p-1, 0x1.5400000000000p-5, -0x1.4a00000000000p-1, -0x1.1600000000000p+1};
static const double rand_f16_4_2[] = {0x1.1980000000000p-1, 0x1.6cc0000000000p-1, 0x1.ae00000000000p-2, 0x1.4380000000000p-1};
static const double uniform_f32_2[] = {0x1.81d0be0000000p+1, 0x1.9c00d00000000p+1, -0x1.b6b0100000000p-4, 0x1.bf71cc0000000p+1, -0x1.e90d300000000p-5, 0x1.416ebc0000000p+0};
static const double normal_f64_2[] = {0x1.958c55b33d44dp+0, 0x1.883e69cd9ea5cp+0, 0x1.8f016e6db1f62p+0, 0x1.8ebdc6bd853e1p+0};
static const double exponential_f64_2[] = {0x1.4735dd7f3b88cp-5, 0x1.62db3659598f2p-5, 0x1.683883537846ap-4, 0x1.26fb94755d490p-5};
static const double cauchy_f64_2[] = {-0x1.4a66311ea79c1p+3, -0x1.2f98cc6a35e2bp+3, -0x1.18f1a4560fc60p+2, -0x1.6fe9b54b9d964p+3};
static const double log_normal_f32_2[] = {0x1.84fa5a0000000p+0, 0x1.5e93e00000000p+0, 0x1.7198660000000p+0, 0x1.70d5400000000p+0};
static const double geometric_f64_2[] = {0x1.0000000000000p+3, 0x1.0000000000000p+3, 0x1.8000000000000p+2, 0x1.2000000000000p+3};
static const double bernoulli_f32_2[] = {0x1.0000000000000p+0, 0x1.0000000000000p+0, 0x1.0000000000000p+0, 0x1.0000000000000p+0, 0x0.0p+0, 0x0.0p+0, 0x0.0p+0, 0x0.0p+0};
static const double poisson_f64_2[] = {0x0.0p+0, 0x1.0000000000000p+0, 0x1.2000000000000p+4, 0x1.5c00000000000p+6};
static const double randint_2[] = {-0x1.8000000000000p+1, 0x1.0000000000000p+1, 0x1.0000000000000p+0, -0x1.0000000000000p+0, 0x1.0000000000000p+0, 0x0.0p+0, -0x1.4000000000000p+2, -0x1.0000000000000p+0};
static const double randint_wide_2[] = {0x1.9b2fa8f6cc000p+38, 0x1.70bbd65438000p+38, 0x1.ab1e67511c000p+38};
static const double randperm_2[] = {0x1.0000000000000p+1, 0x1.8000000000000p+2, 0x1.0000000000000p+0, 0x1.0000000000000p+3, 0x1.0000000000000p+2, 0x1.4000000000000p+2, 0x0.0p+0, 0x1.2000000000000p+3, 0x1.8000000000000p+1, 0x1.c000000000000p+2};
static const double multinomial_2[] = {0x0.0p+0, 0x0.0p+0, 0x1.0000000000000p+0, 0x0.0p+0, 0x1.0000000000000p+1, 0x1.0000000000000p+1};
static const double multinomial_norep_2[] = {0x1.8000000000000p+1, 0x1.0000000000000p+0, 0x1.0000000000000p+1, 0x0.0p+0};
static const uint32_t raw_3[] = {953453411u, 236996814u, 3739766767u, 3570525885u, 887852006u, 1562238070u, 3945403792u, 4206684233u};
static const double rand_f32_3[] = {0x1.a916c60000000p-1, 0x1.0246700000000p-3, 0x1.d09fde0000000p-1, 0x1.a3cd7a0000000p-1, 0x1.d717cc0000000p-1};
static const double rand_f64_3[] = {0x1.48b630e2048cep-1, 0x1.09fdfa9a3cd7ap-2, 0x1.717ccba3bb8ecp-2, 0x1.42b21f579d092p-2, 0x1.108102dfd05c8p-2, 0x1.b3ee7659087bep-1, 0x1.2899b5aa8ca70p-1, 0x1.70a9e7c944ed0p-1, 0x1.b1e07fda670ccp-1, 0x1.cff1f9dd718e2p-2, 0x1.6eb6b4c85dfcep-2, 0x1.4d8a1a391f036p-2, 0x1.9a42c3e1720cdp-1, 0x1.bfb2f0eb7b104p-3, 0x1.c6d78e31ff0f0p-4, 0x1.50fa86886f8acp-2, 0x1.69cfa3cfa1124p-2, 0x1.7c9fdc17c82f2p-2, 0x1.83e89860f956ap-1, 0x1.040297dfc9fe9p-1};
static const double randn_f32_5_3[] = {-0x1.f276a80000000p-2, -0x1.35281a0000000p-1, -0x1.1dbeca0000000p-1, 0x1.55c5be0000000p-1, -0x1.944e5e0000000p-3};
static const double randn_f32_17_3[] = {0x1.d7a2ee0000000p+0, 0x1.38d6a60000000p+0, -0x1.58862e0000000p-2, -0x1.ee1c5e0000000p-1, -0x1.098c960000000p-3, -0x1.341aa00000000p-1, 0x1.28f5020000000p-3, -0x1.32d8960000000p-3, 0x1.4eaa760000000p+1, 0x1.8ef7ba0000000p-1, -0x1.ddeab80000000p-5, -0x1.03e7440000000p+1, 0x1.7ba1740000000p+0, 0x1.f9e51e0000000p-2, 0x1.fe666a0000000p-3, 0x1.bf3d740000000p+0, 0x1.7d53680000000p-1};
static const double randn_f64_17_3[] = {0x1.a5ab264ef7d21p-1, 0x1.2e69b1aedceb2p-7, 0x1.86bba742d07c6p-1, 0x1.a21c6484c7cb3p-1, -0x1.6716afaed8128p+0, 0x1.6857063f74099p-1, 0x1.a16f779f96ad5p-5, 0x1.aca7e5009a494p-1, -0x1.72e5cb91ca2b4p-2, 0x1.ed988f9b5209ap-1, 0x1.803057ab32e8fp+0, 0x1.bbb338e90cdbcp-1, -0x1.9ab6fef76b56ep-2, -0x1.70935fc81de01p-1, -0x1.131437148c9bfp-2, -0x1.95039df884404p-2, 0x1.eacfe4584ab0fp+0};
static const double randn_f16_16_3[] = {-0x1.0c80000000000p+0, -0x1.2f40000000000p-2, 0x1.0240000000000p+1, 0x1.e200000000000p+0, 0x1.6940000000000p-2, -0x1.b840000000000p-2, -0x1.6f40000000000p-1, 0x1.4940000000000p-3, -0x1.a3c0000000000p-6, 0x1.6900000000000p-2, -0x1.2cc0000000000p+1, -0x1.8940000000000p-2, 0x1.1a00000000000p+0, 0x1.3400000000000p+0, 0x1.5d80000000000p+0, -0x1.bb00000000000p-3};
static const double randn_bf16_17_3[] = {0x1.f000000000000p-1, 0x1.2000000000000p-1, 0x1.4e00000000000p-2, -0x1.9600000000000p-6, -0x1.4e00000000000p-1, 0x1.9a00000000000p+0, 0x1.ae00000000000p-2, -0x1.f000000000000p-3, -0x1.3800000000000p-1, -0x1.b200000000000p+0, -0x1.3e00000000000p+0, 0x1.1400000000000p+0, -0x1.6c00000000000p+0, 0x1.7200000000000p+0, -0x1.8400000000000p-1, 0x1.a000000000000p-2, 0x1.8e00000000000p-5};
static const double rand_f16_4_3[] = {0x1.b180000000000p-2, 0x1.9c00000000000p-4, 0x1.fbc0000000000p-1, 0x1.af40000000000p-1};
static const double uniform_f32_3[] = {0x1.5833960000000p+1, -0x1.b638f80000000p+0, 0x1.95f9ca0000000p+1, 0x1.4ff10e0000000p+1, 0x1.a0152e0000000p+1, -0x1.c55e1e0000000p+0};
static const double normal_f64_3[] = {0x1.60d8958cd78a0p+0, 0x1.595afcb2dad7bp+0, 0x1.5c4826bf25da3p+0, 0x1.aab8b7d9180e6p+0};
static const double exponential_f64_3[] = {0x1.5ea3b76b2cc70p-1, 0x1.9aa988469c8a6p-3, 0x1.318c7736f18eap-2, 0x1.0268ebac8fb7ep-2};
static const double cauchy_f64_3[] = {0x1.74e64caf0bfc2p+0, -0x1.6188865de9cbap+0, -0x1.bd3837a16b264p-2, -0x1.a008222953064p-1};
static const double log_normal_f32_3[] = {0x1.01b29a0000000p+0, 0x1.e619880000000p-1, 0x1.f157600000000p-1, 0x1.caf3000000000p+0};
static const double geometric_f64_3[] = {0x1.0000000000000p+1, 0x1.0000000000000p+2, 0x1.8000000000000p+1, 0x1.0000000000000p+2};
static const double bernoulli_f32_3[] = {0x0.0p+0, 0x1.0000000000000p+0, 0x1.0000000000000p+0, 0x1.0000000000000p+0, 0x1.0000000000000p+0, 0x0.0p+0, 0x0.0p+0, 0x0.0p+0};
static const double poisson_f64_3[] = {0x1.0000000000000p+0, 0x1.8000000000000p+1, 0x1.a000000000000p+3, 0x1.c000000000000p+6};
static const double randint_3[] = {-0x1.0000000000000p+2, -0x1.0000000000000p+0, 0x1.0000000000000p+1, 0x0.0p+0, 0x1.0000000000000p+0, -0x1.4000000000000p+2, -0x1.8000000000000p+1, -0x1.0000000000000p+1};
static const double randint_wide_3[] = {0x1.8c38812338000p+38, 0x1.dfa9a3cd7a000p+39, 0x1.ccba3bb8ec000p+39};
static const double randperm_3[] = {0x1.0000000000000p+0, 0x1.0000000000000p+2, 0x1.2000000000000p+3, 0x1.8000000000000p+2, 0x1.8000000000000p+1, 0x1.4000000000000p+2, 0x0.0p+0, 0x1.0000000000000p+1, 0x1.0000000000000p+3, 0x1.c000000000000p+2};
static const double multinomial_3[] = {0x1.8000000000000p+1, 0x1.0000000000000p+0, 0x1.0000000000000p+1, 0x1.0000000000000p+1, 0x1.0000000000000p+0, 0x1.8000000000000p+1};
static const double multinomial_norep_3[] = {0x1.8000000000000p+1, 0x1.0000000000000p+1, 0x1.0000000000000p+0, 0x0.0p+0};


static const uint64_t seeds[4] = {0, 1, 42, (UINT64_C(1) << 32) + 5};

/* Every element of t (row-major) equals want[i] exactly; n elements. */
static int same(tsr_tensor *t, const double *want, int64_t n)
{
    if (!t) { printf("    error: %s\n", tsr_error_message()); tsr_error_clear(); return 0; }
    int ok = tsr_tensor_numel(t) == n;
    for (int64_t i = 0; ok && i < n; i++) {
        double v = tsr_tensor_get_double_at(t, i);
        if (memcmp(&v, &want[i], sizeof v) != 0) {
            printf("    element %lld: got %a want %a\n", (long long)i, v, want[i]);
            ok = 0;
        }
    }
    tsr_tensor_release(t);
    return ok;
}

static tsr_tensor *filled(int64_t n, tsr_dtype d) { return tsr_zeros(1, &n, d, TSR_CPU); }

/* In-place samplers return their tensor for same(); NULL on error. */
#define INPLACE(t, call) ((call) < 0 ? (tsr_tensor_release(t), (tsr_tensor *)NULL) : (t))

typedef tsr_tensor *(*StreamFn)(void);
static tsr_tensor *s_rand_f32(void) { int64_t n = 5; return tsr_rand(1, &n, TSR_FLOAT32, TSR_CPU, NULL); }
static tsr_tensor *s_rand_f64(void) { int64_t n = 20; return tsr_rand(1, &n, TSR_FLOAT64, TSR_CPU, NULL); }
static tsr_tensor *s_randn_f32_5(void) { int64_t n = 5; return tsr_randn(1, &n, TSR_FLOAT32, TSR_CPU, NULL); }
static tsr_tensor *s_randn_f32_17(void) { int64_t n = 17; return tsr_randn(1, &n, TSR_FLOAT32, TSR_CPU, NULL); }
static tsr_tensor *s_randn_f64_17(void) { int64_t n = 17; return tsr_randn(1, &n, TSR_FLOAT64, TSR_CPU, NULL); }
static tsr_tensor *s_randn_f16_16(void) { int64_t n = 16; return tsr_randn(1, &n, TSR_FLOAT16, TSR_CPU, NULL); }
static tsr_tensor *s_randn_bf16_17(void) { int64_t n = 17; return tsr_randn(1, &n, TSR_BFLOAT16, TSR_CPU, NULL); }
static tsr_tensor *s_rand_f16_4(void) { int64_t n = 4; return tsr_rand(1, &n, TSR_FLOAT16, TSR_CPU, NULL); }
static tsr_tensor *s_uniform_f32(void) { tsr_tensor *t = filled(6, TSR_FLOAT32); return INPLACE(t, tsr_uniform_(t, -2.5, 3.75, NULL)); }
static tsr_tensor *s_normal_f64(void) { tsr_tensor *t = filled(4, TSR_FLOAT64); return INPLACE(t, tsr_normal_(t, 1.5, 0.25, NULL)); }
static tsr_tensor *s_exponential_f64(void) { tsr_tensor *t = filled(4, TSR_FLOAT64); return INPLACE(t, tsr_exponential_(t, 1.5, NULL)); }
static tsr_tensor *s_cauchy_f64(void) { tsr_tensor *t = filled(4, TSR_FLOAT64); return INPLACE(t, tsr_cauchy_(t, 0.5, 2.0, NULL)); }
static tsr_tensor *s_log_normal_f32(void) { tsr_tensor *t = filled(4, TSR_FLOAT32); return INPLACE(t, tsr_log_normal_(t, 0.25, 0.5, NULL)); }
static tsr_tensor *s_geometric_f64(void) { tsr_tensor *t = filled(4, TSR_FLOAT64); return INPLACE(t, tsr_geometric_(t, 0.3, NULL)); }
static tsr_tensor *s_bernoulli_f32(void) { tsr_tensor *t = filled(8, TSR_FLOAT32); return INPLACE(t, tsr_bernoulli_(t, 0.4, NULL)); }
static tsr_tensor *s_poisson_f64(void)
{
    int64_t n = 4;
    tsr_tensor *r = tsr_zeros(1, &n, TSR_FLOAT64, TSR_CPU);
    const double rates[4] = {0.5, 3.5, 12.0, 100.0};
    for (int i = 0; i < 4; i++) tsr_tensor_set_at(r, i, tsr_scalar_float(rates[i]));
    tsr_tensor *t = tsr_poisson(r, NULL);
    tsr_tensor_release(r);
    return t;
}
static tsr_tensor *s_randint(void) { int64_t n = 8; return tsr_randint(-5, 5, 1, &n, TSR_INT64, TSR_CPU, NULL); }
static tsr_tensor *s_randint_wide(void) { int64_t n = 3; return tsr_randint(0, INT64_C(1) << 40, 1, &n, TSR_INT64, TSR_CPU, NULL); }
static tsr_tensor *s_randperm(void) { return tsr_randperm(10, TSR_INT64, TSR_CPU, NULL); }
static tsr_tensor *probs(void)
{
    int64_t n = 4;
    tsr_tensor *p = tsr_zeros(1, &n, TSR_FLOAT32, TSR_CPU);
    for (int i = 0; i < 4; i++) tsr_tensor_set_at(p, i, tsr_scalar_float(0.1 * (i + 1)));
    return p;
}
static tsr_tensor *s_multinomial(void) { tsr_tensor *p = probs(), *t = tsr_multinomial(p, 6, true, NULL); tsr_tensor_release(p); return t; }
static tsr_tensor *s_multinomial_norep(void) { tsr_tensor *p = probs(), *t = tsr_multinomial(p, 4, false, NULL); tsr_tensor_release(p); return t; }

#define STREAM(name) {#name, s_##name, {name##_0, name##_1, name##_2, name##_3}, sizeof name##_0 / sizeof(double)}
static const struct { const char *name; StreamFn fn; const double *want[4]; int64_t n; } streams[] = {
    STREAM(rand_f32), STREAM(rand_f64), STREAM(randn_f32_5), STREAM(randn_f32_17), STREAM(randn_f64_17),
    STREAM(randn_f16_16), STREAM(randn_bf16_17), STREAM(rand_f16_4), STREAM(uniform_f32), STREAM(normal_f64),
    STREAM(exponential_f64), STREAM(cauchy_f64), STREAM(log_normal_f32), STREAM(geometric_f64),
    STREAM(bernoulli_f32), STREAM(poisson_f64), STREAM(randint), STREAM(randint_wide), STREAM(randperm),
    STREAM(multinomial), STREAM(multinomial_norep),
};

TEST(random_mt19937_raw_outputs)
{
    const uint32_t *raw[4] = {raw_0, raw_1, raw_2, raw_3};
    for (int k = 0; k < 4; k++) {
        tsr_generator *g = tsr_generator_new(seeds[k]);
        for (int i = 0; i < 8; i++) CHECK_EQ_INT(tsr_generator_random(g), raw[k][i]);
        tsr_generator_release(g);
    }
    tsr_generator *g = tsr_generator_new(0);
    CHECK(tsr_generator_random64(g) == UINT64_C(0x8c7f0aac97c4aa2f));
    tsr_generator_release(g);
}

TEST(random_streams_match_torch)
{
    for (size_t s = 0; s < sizeof streams / sizeof *streams; s++) {
        for (int k = 0; k < 4; k++) {
            tsr_generator_manual_seed(NULL, seeds[k]);
            int ok = same(streams[s].fn(), streams[s].want[k], streams[s].n);
            if (!ok) printf("    stream %s, seed index %d\n", streams[s].name, k);
            CHECK(ok);
        }
    }
}

TEST(random_generator_objects_are_independent)
{
    tsr_generator *g = tsr_generator_new(TSR_DEFAULT_RNG_SEED);
    CHECK(tsr_generator_initial_seed(g) == TSR_DEFAULT_RNG_SEED);
    tsr_generator_manual_seed(NULL, 123);
    tsr_generator_manual_seed(g, 0);
    int64_t n = 5;
    CHECK(same(tsr_rand(1, &n, TSR_FLOAT32, TSR_CPU, g), rand_f32_0, 5));
    CHECK(tsr_generator_initial_seed(NULL) == 123);
    tsr_generator_release(g);
}

TEST(random_state_layout_and_roundtrip)
{
    tsr_generator_manual_seed(NULL, 0);
    tsr_tensor *st = tsr_generator_get_state(NULL);
    CHECK(st && st->dtype == TSR_UINT8 && tsr_tensor_numel(st) == TSR_RNG_STATE_SIZE);
    const uint8_t *b = tsr_tensor_ptr(st, NULL);
    static const uint8_t head[24] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0};
    CHECK(memcmp(b, head, 24) == 0);
    /* randn(3) leaves a cached double: it is saved and restored with the state */
    int64_t n3 = 3, n1 = 1;
    tsr_tensor_release(tsr_randn(1, &n3, TSR_FLOAT64, TSR_CPU, NULL));
    tsr_tensor *mid = tsr_generator_get_state(NULL);
    CHECK_EQ_INT(((const uint8_t *)tsr_tensor_ptr(mid, NULL))[5040], 1);
    tsr_tensor *a = tsr_randn(1, &n1, TSR_FLOAT64, TSR_CPU, NULL);
    CHECK(tsr_generator_set_state(NULL, mid) == 0);
    tsr_tensor *c = tsr_randn(1, &n1, TSR_FLOAT64, TSR_CPU, NULL);
    CHECK(tsr_tensor_get_double_at(a, 0) == tsr_tensor_get_double_at(c, 0));
    tsr_tensor_release(a);
    tsr_tensor_release(c);
    tsr_tensor_release(mid);
    CHECK(tsr_generator_set_state(NULL, st) == 0);
    int64_t n5 = 5;
    CHECK(same(tsr_rand(1, &n5, TSR_FLOAT32, TSR_CPU, NULL), rand_f32_0, 5));
    tsr_tensor_release(st);
}

TEST(random_state_errors)
{
    int64_t n = 10;
    tsr_tensor *t = tsr_zeros(1, &n, TSR_UINT8, TSR_CPU);
    CHECK(tsr_generator_set_state(NULL, t) < 0);
    CHECK_STR(tsr_error_message(), "Expected either a CPUGeneratorImplStateLegacy of size 5048 or a "
                                   "CPUGeneratorImplState of size 5056 but found the input RNG state size to be 10");
    tsr_error_clear();
    tsr_tensor_release(t);
    n = TSR_RNG_STATE_SIZE;
    t = tsr_zeros(1, &n, TSR_FLOAT32, TSR_CPU);
    CHECK(tsr_generator_set_state(NULL, t) < 0);
    CHECK(tsr_error_kind() == TSR_ERR_TYPE);
    CHECK_STR(tsr_error_message(), "RNG state must be a torch.ByteTensor");
    tsr_error_clear();
    tsr_tensor_release(t);
    t = tsr_zeros(1, &n, TSR_UINT8, TSR_CPU);
    CHECK(tsr_generator_set_state(NULL, t) < 0);
    CHECK_STR(tsr_error_message(), "Invalid mt19937 state");
    tsr_error_clear();
    tsr_tensor_release(t);
}

TEST(random_sampler_errors)
{
    int64_t n = 3;
    tsr_tensor *i = tsr_zeros(1, &n, TSR_INT64, TSR_CPU), *f = tsr_zeros(1, &n, TSR_FLOAT32, TSR_CPU);
    CHECK(tsr_normal_(i, 0, 1, NULL) < 0);
    CHECK_STR(tsr_error_message(), "\"normal_kernel_cpu\" not implemented for 'Long'");
    tsr_error_clear();
    CHECK(tsr_uniform_(f, 2, 1, NULL) < 0);
    CHECK_STR(tsr_error_message(), "uniform_ expects to return a [from, to) range, but found from=2 > to=1");
    tsr_error_clear();
    CHECK(tsr_normal_(f, 0, -1.5, NULL) < 0);
    CHECK_STR(tsr_error_message(), "normal expects std >= 0.0, but found std -1.5");
    tsr_error_clear();
    int64_t to = 5;
    CHECK(tsr_random_from_to_(f, 5, &to, NULL) < 0);
    CHECK_STR(tsr_error_message(), "random_ expects 'from' to be less than 'to', but got from=5 >= to=5");
    tsr_error_clear();
    to = 1000;
    tsr_tensor *u8 = tsr_zeros(1, &n, TSR_UINT8, TSR_CPU);
    CHECK(tsr_random_from_to_(u8, 0, &to, NULL) < 0);
    CHECK_STR(tsr_error_message(), "to - 1 is out of bounds for unsigned char");
    tsr_error_clear();
    CHECK(tsr_randperm(3000, TSR_FLOAT16, TSR_CPU, NULL) == NULL);
    CHECK_STR(tsr_error_message(), "n cannot be greater than 2049 for Half type.");
    tsr_error_clear();
    tsr_tensor *e = tsr_view_expand(f, 2, (int64_t[]){2, 3});
    CHECK(tsr_uniform_(e, 0, 1, NULL) < 0);
    CHECK(strstr(tsr_error_message(), "more than one element of the written-to tensor") != NULL);
    tsr_error_clear();
    tsr_tensor_release(e);
    tsr_tensor_release(u8);
    tsr_tensor_release(i);
    tsr_tensor_release(f);
}

TEST(random_meta_draws_nothing)
{
    tsr_generator_manual_seed(NULL, 0);
    int64_t n = 4;
    tsr_tensor *m = tsr_randn(1, &n, TSR_FLOAT32, TSR_META, NULL);
    CHECK(m && tsr_tensor_is_meta(m));
    tsr_tensor_release(m);
    int64_t n5 = 5;
    CHECK(same(tsr_rand(1, &n5, TSR_FLOAT32, TSR_CPU, NULL), rand_f32_0, 5));
}

/* Two tensors of one shape and dtype whose elements are bit-equal as doubles. */
static int equal_values(const tsr_tensor *a, const tsr_tensor *b)
{
    if (!a || !b || a->ndim != b->ndim || a->dtype != b->dtype) return 0;
    int64_t n = tsr_tensor_numel(a);
    if (n != tsr_tensor_numel(b)) return 0;
    for (int64_t i = 0; i < n; i++) {
        double x = tsr_tensor_get_double_at(a, i), y = tsr_tensor_get_double_at(b, i);
        if (memcmp(&x, &y, sizeof x)) return 0;
    }
    return 1;
}

TEST(random_out_forms_draw_as_functional)
{
    int64_t sz[2] = {3, 5}, zero = 0, three = 3;
    for (int k = 0; k < 8; k++) {
        tsr_tensor *mean = tsr_full(1, &three, tsr_scalar_float(1.5), TSR_FLOAT32, TSR_CPU);
        tsr_tensor *std = tsr_full(1, &three, tsr_scalar_float(2.0), TSR_FLOAT32, TSR_CPU);
        tsr_dtype dt = k == 2 || k == 3 ? TSR_INT64 : TSR_FLOAT32;
        tsr_tensor *want = NULL;
        tsr_tensor *out = tsr_empty(1, k == 5 ? &three : &zero, dt, TSR_CPU, TSR_MF_CONTIGUOUS);
        int rc = -1;
        tsr_generator_manual_seed(NULL, 7);
        switch (k) {
        case 0: want = tsr_rand(2, sz, dt, TSR_CPU, NULL); break;
        case 1: want = tsr_randn(2, sz, dt, TSR_CPU, NULL); break;
        case 2: want = tsr_randint(-4, 9, 2, sz, dt, TSR_CPU, NULL); break;
        case 3: want = tsr_randperm(17, dt, TSR_CPU, NULL); break;
        case 4: want = tsr_normal_size(1.0, 3.0, 2, sz, dt, TSR_CPU, NULL); break;
        case 5: want = tsr_normal_tf(mean, 0.5, NULL); break;
        case 6: want = tsr_normal_ft(2.0, std, NULL); break;
        case 7: want = tsr_normal_tt(mean, std, NULL); break;
        }
        tsr_generator_manual_seed(NULL, 7);
        switch (k) {
        case 0: rc = tsr_rand_out(out, 2, sz, NULL); break;
        case 1: rc = tsr_randn_out(out, 2, sz, NULL); break;
        case 2: rc = tsr_randint_out(out, -4, 9, 2, sz, NULL); break;
        case 3: rc = tsr_randperm_out(out, 17, NULL); break;
        case 4: rc = tsr_normal_size_out(out, 1.0, 3.0, 2, sz, NULL); break;
        case 5: rc = tsr_normal_tf_out(out, mean, 0.5, NULL); break;
        case 6: rc = tsr_normal_ft_out(out, 2.0, std, NULL); break;
        case 7: rc = tsr_normal_tt_out(out, mean, std, NULL); break;
        }
        CHECK_EQ_INT(rc, 0);
        int ok = equal_values(want, out);
        if (!ok) printf("    out form %d\n", k);
        CHECK(ok);
        tsr_tensor_release(want);
        tsr_tensor_release(out);
        tsr_tensor_release(mean);
        tsr_tensor_release(std);
    }
}

TEST(random_out_errors)
{
    int64_t zero = 0;
    const struct { tsr_dtype d; int64_t n; const char *msg; } bad[] = {
        {TSR_UINT8, 257, "value cannot be converted to type uint8_t without overflow"},
        {TSR_FLOAT16, 2050, "n cannot be greater than 2049 for Half type."},
        {TSR_INT64, -1, "n must be non-negative, got-1"},
        {TSR_BOOL, 3, "\"randperm\" not implemented for 'Bool'"},
    };
    for (int i = 0; i < (int)(sizeof bad / sizeof *bad); i++) {
        tsr_tensor *out = tsr_empty(1, &zero, bad[i].d, TSR_CPU, TSR_MF_CONTIGUOUS);
        tsr_error_clear();
        CHECK(tsr_randperm_out(out, bad[i].n, NULL) < 0);
        CHECK_STR(tsr_error_message(), bad[i].msg);
        tsr_tensor_release(out);
    }
    tsr_tensor *c = tsr_empty(1, &zero, TSR_COMPLEX64, TSR_CPU, TSR_MF_CONTIGUOUS);
    int64_t two = 2;
    tsr_error_clear();
    CHECK(tsr_randint_out(c, 0, 6, 1, &two, NULL) < 0);
    CHECK_STR(tsr_error_message(), "check_random_bounds handles only integral, floating-point and boolean types");
    tsr_tensor_release(c);
    tsr_error_clear();
}
